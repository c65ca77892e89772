/**
 * SOUNDLOFT_ROLE in startBackend: a web node neither seeds an empty database nor sweeps storage
 * garbage (nor claims jobs: the same loop); the role `all` sweeps, as npm start always did.
 */
import { describe, expect, it } from 'vitest';
import { startBackend } from '../backend';
import { useTestDatabase } from '../db/use-test-database';
import { DATABASE_HOOK_TIMEOUT_MS } from '../db/test-database';

const test = useTestDatabase();
const env = { DATA_DIR: 'memory', PROCESSING_WORKERS: '1', STEMS_WORKERS: '1' };
const garbage = () =>
  test.db.query<{ name: string }>(
    `select name from public.storage_garbage where bucket_id = 'covers' and name = 'gone/cover.png'`,
  );

describe('roles in startBackend', () => {
  it(
    'web: no seeding, no sweep, no jobs; all: sweeps the garbage',
    async () => {
      await test.db.query(
        `insert into public.storage_garbage (bucket_id, name) values ('covers', 'gone/cover.png')`,
      );
      const web = await startBackend(env, {
        publicUrl: 'http://localhost:1',
        database: test.db,
        role: 'web',
      });
      try {
        // SEED is unset: the role `all` would generate the demo catalogue here.
        expect(web.seededMs).toBeNull();
        expect(web.demoAccounts).toEqual([]);
        const users = await test.db.query<{ n: number }>(
          'select count(*)::int as n from auth.users',
        );
        expect(users.rows[0]?.n).toBe(0);
        // Nothing works the queues on this node: idle at once, the garbage left in place.
        await web.processing.idle();
        await web.stems.idle();
        expect((await garbage()).rows).toHaveLength(1);
      } finally {
        await web.close();
      }
      const all = await startBackend(
        { ...env, SEED: 'none' },
        { publicUrl: 'http://localhost:1', database: test.db },
      );
      try {
        await all.processing.idle();
        expect((await garbage()).rows).toHaveLength(0);
      } finally {
        await all.close();
      }
    },
    DATABASE_HOOK_TIMEOUT_MS,
  );
});
