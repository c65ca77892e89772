/**
 * `Database.listen`: several channels on one handle each hear their own NOTIFYs; on PostgreSQL
 * they share one LISTEN connection (one per node, not one per channel), and after that
 * connection is lost every channel is listened to again and every caller is told (its
 * `onReconnect`), so notifications sent meanwhile can be looked for.
 */
import { describe, expect, it, vi } from 'vitest';
import { testDatabaseKind } from './test-database';
import { useTestDatabase } from './use-test-database';

const test = useTestDatabase();

describe(`Database.listen (${testDatabaseKind()})`, () => {
  it('hears each channel on one shared connection, and listens again after losing it', async () => {
    const heard: string[] = [];
    const reconnected: string[] = [];
    const stops = await Promise.all(
      ['soundloft_test_a', 'soundloft_test_b'].map((channel) =>
        test.db.listen(
          channel,
          (payload) => heard.push(`${channel}:${payload}`),
          () => reconnected.push(channel),
        ),
      ),
    );
    try {
      await test.db.query(
        `select pg_notify('soundloft_test_a', '1'), pg_notify('soundloft_test_b', '2')`,
      );
      await vi.waitFor(() =>
        expect(heard.sort()).toEqual(['soundloft_test_a:1', 'soundloft_test_b:2']),
      );
      if (testDatabaseKind() !== 'postgres') return;
      const listening = async () =>
        (
          await test.db.query<{ pid: number }>(
            `select pid from pg_stat_activity
              where datname = current_database() and query like 'listen %'`,
          )
        ).rows;
      const before = await listening();
      expect(before).toHaveLength(1);
      await test.db.query('select pg_terminate_backend($1)', [before[0]!.pid]);
      await vi.waitFor(
        () => expect(reconnected.sort()).toEqual(['soundloft_test_a', 'soundloft_test_b']),
        { timeout: 15_000 },
      );
      heard.length = 0;
      await test.db.query(
        `select pg_notify('soundloft_test_a', '3'), pg_notify('soundloft_test_b', '4')`,
      );
      await vi.waitFor(() =>
        expect(heard.sort()).toEqual(['soundloft_test_a:3', 'soundloft_test_b:4']),
      );
      expect(await listening()).toHaveLength(1);
    } finally {
      for (const stop of stops) await stop();
    }
  });
});
