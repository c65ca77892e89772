/**
 * Resumable uploads with the object store on S3 and two server instances sharing one database and
 * one S3 endpoint: the PATCHes of one upload alternate between the nodes, and the locks of an
 * upload are seen by both (upload-locker.ts).
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../db/test-database';
import { createUser, type TestUser } from '../db/test-factories';
import { loadKeys, type Keys } from '../keys';
import { createStorageApp } from './app';
import { createS3ObjectStore } from './s3-object-store';
import { accessToken, serveApp, tusPatch } from './test-support';
import { startTestS3Server, type TestS3Server } from './test-s3';
import { sameBytes, wavBytes } from './test-files';
import { createUploadLocker } from './upload-locker';

let test: Awaited<ReturnType<typeof openTestDatabase>>;
let s3: TestS3Server;
let keys: Keys;
let nodes: { url: string; close: () => Promise<void> }[] = [];
let artist: TestUser;

beforeAll(async () => {
  test = await openTestDatabase();
  s3 = await startTestS3Server();
  keys = loadKeys({ JWT_SECRET: 'storage-test-secret-at-least-32-characters' }, () => undefined);
  // Two nodes: each its own S3 client, TUS server and locker; one database, one bucket.
  nodes = await Promise.all(
    [0, 1].map(() => {
      const app = new Hono();
      const store = createS3ObjectStore(s3.config);
      app.route('/storage/v1', createStorageApp({ db: test.db, keys, store }));
      return serveApp(app);
    }),
  );
  artist = await createUser(test.db);
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(async () => {
  for (const node of nodes) await node.close();
  await test?.close();
  await s3?.close();
}, DATABASE_HOOK_TIMEOUT_MS);

const tus = (extra: Record<string, string>) => ({
  'Tus-Resumable': '1.0.0',
  authorization: `Bearer ${accessToken(keys, artist)}`,
  ...extra,
});
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** What the bucket holds of unfinished uploads. */
async function tusKeys(): Promise<string[]> {
  const { client } = createS3ObjectStore(s3.config).s3;
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'tus/' }));
  return (listed.Contents ?? []).map((o) => o.Key ?? '');
}

describe(
  `resumable uploads on S3 across two nodes (${testDatabaseKind()})`,
  { timeout: 120_000 },
  () => {
    it('completes an upload whose PATCHes alternate between the nodes, with the right bytes', async () => {
      const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
      const wav = wavBytes(11 * 1024 * 1024); // two 5 MiB parts and a tail
      const name = `${artist.id}/${Date.now()}_two_nodes.wav`;
      const created = await fetch(`${a.url}/storage/v1/upload/resumable`, {
        method: 'POST',
        headers: tus({
          'Upload-Length': String(wav.length),
          'Upload-Metadata': `bucketName ${b64('tracks')},objectName ${b64(name)},contentType ${b64('audio/wav')}`,
        }),
      });
      expect(created.status).toBe(201);
      const path = new URL(created.headers.get('location') ?? '').pathname;
      expect(path).toMatch(/^\/storage\/v1\/upload\/resumable\/[A-Za-z0-9_-]+$/);

      // 3 MiB chunks: below S3's 5 MiB part minimum, so every PATCH also carries on the tail that
      // the previous one, on the other node, left in S3.
      const chunk = 3 * 1024 * 1024;
      let offset = 0;
      for (let i = 0; offset < wav.length; i++) {
        const node = i % 2 === 0 ? a : b;
        const head = await fetch(`${node.url}${path}`, { method: 'HEAD', headers: tus({}) });
        expect(Number(head.headers.get('upload-offset'))).toBe(offset);
        const body = wav.subarray(offset, offset + chunk);
        const res = await tusPatch(`${node.url}${path}`, offset, body, tus({}));
        expect(res.status, await res.clone().text()).toBe(204);
        offset += body.length;
        expect(Number(res.headers.get('upload-offset'))).toBe(offset);
      }

      for (const node of nodes) {
        const res = await fetch(`${node.url}/storage/v1/object/tracks/${name}`, {
          headers: { authorization: `Bearer ${accessToken(keys, artist)}` },
        });
        expect(res.status).toBe(200);
        expect(sameBytes(await res.arrayBuffer(), wav)).toBe(true);
      }
      // A Range read through Storage moves the range from S3, not the 11 MB object.
      const before = s3.bytesSent();
      const ranged = await fetch(`${b.url}/storage/v1/object/tracks/${name}`, {
        headers: { authorization: `Bearer ${accessToken(keys, artist)}`, Range: 'bytes=0-99' },
      });
      expect(ranged.status).toBe(206);
      expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(wav.subarray(0, 100));
      expect(s3.bytesSent() - before).toBeLessThan(4096); // HEAD + ranged GET, headers included
      // The finished upload is gone from the unfinished ones, on both nodes (it goes once the
      // last answer is written), and nothing of it is left under tus/ in the bucket.
      for (const node of nodes) {
        const head = () =>
          fetch(`${node.url}${path}`, { method: 'HEAD', headers: tus({}) }).then((r) => r.status);
        await expect.poll(head).toBe(404);
      }
      await expect.poll(tusKeys).toEqual([]);
    });

    it('terminates on one node an upload begun on the other: nothing of it is left', async () => {
      const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
      const wav = wavBytes(1024 * 1024);
      const name = `${artist.id}/${Date.now()}_abandoned.wav`;
      const created = await fetch(`${a.url}/storage/v1/upload/resumable`, {
        method: 'POST',
        headers: tus({
          'Upload-Length': String(wav.length),
          'Upload-Metadata': `bucketName ${b64('tracks')},objectName ${b64(name)}`,
          'Content-Type': 'application/offset+octet-stream',
        }),
        body: wav.subarray(0, 1000),
      });
      expect(created.status).toBe(201);
      const path = new URL(created.headers.get('location') ?? '').pathname;
      const id = path.split('/').pop();
      // Its info and its tail under S3's part minimum (the multipart upload lists no key).
      expect((await tusKeys()).sort()).toEqual([`tus/${id}.info`, `tus/${id}.part`]);
      const gone = await fetch(`${b.url}${path}`, { method: 'DELETE', headers: tus({}) });
      expect(gone.status).toBe(204);
      const head = await fetch(`${a.url}${path}`, { method: 'HEAD', headers: tus({}) });
      expect(head.status).toBe(404);
      expect(await tusKeys()).toEqual([]);
    });

    it('shares the locks of an upload between nodes: a waiter asks the holder to let go', async () => {
      const [one, two] = await Promise.all([
        createUploadLocker(test.db),
        createUploadLocker(test.db),
      ]);
      try {
        const held = one.newLock('tus/some-upload');
        let askedToRelease!: () => void;
        const released = new Promise<void>((resolve) => (askedToRelease = resolve));
        await held.lock(new AbortController().signal, askedToRelease);

        const order: string[] = [];
        const waiter = two.newLock('tus/some-upload');
        const acquired = waiter
          .lock(new AbortController().signal, () => undefined)
          .then(() => order.push('acquired by the other node'));
        await released; // the other node's request asked, through PostgreSQL
        order.push('holder releases');
        await held.unlock();
        await acquired;
        expect(order).toEqual(['holder releases', 'acquired by the other node']);
        await waiter.unlock();
        const { rows } = await test.db.query('select * from storage.upload_locks');
        expect(rows).toEqual([]);
      } finally {
        await one.close();
        await two.close();
      }
    });
  },
);
