import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from './migrate';
import { pgliteLocation } from './open-database';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('puts PGlite under DATA_DIR (default ./.data), or in memory', () => {
    expect(pgliteLocation({})).toBe(resolve('.data', 'pgdata'));
    expect(pgliteLocation({ DATA_DIR: '/srv/soundloft' })).toBe('/srv/soundloft/pgdata');
    expect(pgliteLocation({ DATA_DIR: 'memory' })).toBe('memory');
  });

  it('persists PGlite data in DATA_DIR across restarts and migrates only once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'soundloft-db-'));
    dirs.push(dataDir);
    const first = await openAndMigrate({ DATA_DIR: dataDir });
    expect(first.kind).toBe('pglite');
    await first.query(`insert into public.admin_emails (email) values ('kept@example.test')`);
    await first.close();
    const second = await openAndMigrate({ DATA_DIR: dataDir });
    const { rows } = await second.query('select email from public.admin_emails');
    expect(rows).toEqual([{ email: 'kept@example.test' }]);
    await second.close();
  }, 120_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'opens PostgreSQL when DATABASE_URL is set',
    async () => {
      const { openDatabase } = await import('./open-database');
      const db = await openDatabase({
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        DATA_DIR: 'memory',
      });
      expect(db.kind).toBe('postgres');
      expect((await db.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      await db.close();
    },
  );
});
