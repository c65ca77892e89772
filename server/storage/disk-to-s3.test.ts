/**
 * `npm run storage:to-s3` on the demo catalogue: seeded onto disk, copied into s3rver by the
 * command, then served from S3 by a storage app on the same database, byte for byte as on disk.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncAdmins } from '../db/admins';
import { DATABASE_HOOK_TIMEOUT_MS, openTestDatabase, type TestDatabase } from '../db/test-database';
import { loadKeys } from '../keys';
import { seedDemoCatalogue } from '../seed';
import { createStorageApp } from './app';
import { copyDiskStoreToS3 } from './disk-to-s3';
import { openObjectStore } from './object-store';
import { createS3ObjectStore } from './s3-object-store';
import { publicObjectPath } from './service';
import { signObjectUrl } from './signed-urls';
import { serveApp } from './test-support';
import { startTestS3Server, type TestS3Server } from './test-s3';

const ADMINS = ['admin@soundloft.local'];
const dataDir = mkdtempSync(join(tmpdir(), 'soundloft-to-s3-'));
let test: TestDatabase;
let s3: TestS3Server;

beforeAll(async () => {
  test = await openTestDatabase();
  s3 = await startTestS3Server();
  await syncAdmins(test.db, ADMINS);
  await seedDemoCatalogue(test.db, openObjectStore(dataDir), {
    adminEmails: ADMINS,
    limit: 2,
    workers: 1,
  });
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(async () => {
  await test?.close();
  await s3?.close();
  rmSync(dataDir, { recursive: true, force: true });
}, DATABASE_HOOK_TIMEOUT_MS);

const diskFile = (bucket: string, name: string) =>
  readFileSync(join(dataDir, 'storage', bucket, ...name.split('/')));

describe('moving a disk store into S3 (npm run storage:to-s3)', { timeout: 180_000 }, () => {
  it('copies every object, then serves the same bytes from S3', async () => {
    // A temporary file of the file store, mid-write: not an object, never copied.
    const { rows } = await test.db.query<{ bucket_id: string; name: string; size: string }>(
      `select bucket_id, name, metadata->>'size' as size from storage.objects order by bucket_id, name`,
    );
    expect(rows.length).toBeGreaterThan(4);
    const first = rows[0]!;
    writeFileSync(join(dataDir, 'storage', first.bucket_id, '.0123456789abcdef.upload'), 'partial');

    const lines: string[] = [];
    const result = await copyDiskStoreToS3({
      dataDir,
      config: s3.config,
      log: (l) => lines.push(l),
    });
    expect(result).toMatchObject({
      files: rows.length,
      copied: rows.length,
      skipped: 0,
      ignored: [],
    });
    expect(lines.at(-1)).toMatch(new RegExp(`^done: ${rows.length} copied`));
    expect(lines.filter((l) => /^\[\d+\/\d+\] .*: copied, size checked$/.test(l))).toHaveLength(
      rows.length,
    );

    const store = createS3ObjectStore(s3.config);
    for (const row of rows)
      expect(await store.size(row.bucket_id, row.name)).toBe(Number(row.size));

    const keys = loadKeys(
      { JWT_SECRET: 'storage-test-secret-at-least-32-characters' },
      () => undefined,
    );
    const app = new Hono();
    app.route('/storage/v1', createStorageApp({ db: test.db, keys, store }));
    const server = await serveApp(app);
    try {
      const cover = rows.find((r) => r.bucket_id === 'covers')!;
      const res = await fetch(`${server.url}${publicObjectPath('covers', cover.name)}`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(diskFile('covers', cover.name));

      const track = rows.find((r) => r.bucket_id === 'renditions' || r.bucket_id === 'tracks')!;
      const token = signObjectUrl(keys.jwtSecret, track.bucket_id, track.name, 60);
      const signed = `${server.url}/storage/v1/object/sign/${track.bucket_id}/${track.name}?token=${token}`;
      const ranged = await fetch(signed, { headers: { Range: 'bytes=100-199' } });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get('content-range')).toBe(`bytes 100-199/${track.size}`);
      expect(Buffer.from(await ranged.arrayBuffer())).toEqual(
        diskFile(track.bucket_id, track.name).subarray(100, 200),
      );
    } finally {
      await server.close();
    }
  });

  it('is idempotent: the command run again copies nothing', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/storage-to-s3.ts'],
      { env: { ...process.env, ...s3.env, DATA_DIR: dataDir }, cwd: process.cwd() },
    );
    const { rows } = await test.db.query('select 1 from storage.objects');
    expect(stdout).toContain(
      `done: 0 copied (0.0 MB), ${rows.length} already in S3 with the same size, 0 ignored`,
    );
  });
});
