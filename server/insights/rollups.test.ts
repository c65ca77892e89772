/**
 * The worker's roll-up (docs/insights.md): rolling up the past days changes no figure the artist
 * reads (the roll-ups and the live part are the same SQL), a second run rolls up nothing, a day
 * already rolled up is not rolled up again, and startInsightsRollups runs it.
 */
import { describe, expect, it } from 'vitest';
import { asRole } from '../db/as-role';
import { createTrack, createUser } from '../db/test-factories';
import { useTestDatabase } from '../db/use-test-database';
import { startInsightsRollups } from './rollups';

const t = useTestDatabase();

describe('insights roll-ups', () => {
  it('roll up past days idempotently, and the artist reads the same figures before and after', async () => {
    const db = t.db;
    const artist = await createUser(db);
    const track = await createTrack(db, artist, { duration: 60 });
    const listeners = await Promise.all(Array.from({ length: 6 }, () => createUser(db)));
    // Six listens three days ago and six today, each counted, with sources and evidence.
    for (const daysAgo of [3, 0])
      for (const [i, l] of listeners.entries()) {
        const { rows } = await db.query<{ id: string }>(
          `insert into public.play_events (listener_id, track_id, session_id, counted, played_at, created_at)
           values ($1, $2, gen_random_uuid()::text, true, now() - make_interval(days => $3),
                   now() - make_interval(days => $3)) returning id`,
          [l.id, track.id, daysAgo],
        );
        await db.query(
          `insert into public.play_sources (event_id, source) values ($1, 'explore')`,
          [rows[0]!.id],
        );
        await db.query(
          `insert into public.served_audio (listener_id, track_id, object, object_size, bytes,
              first_served_at, last_served_at, claimed_at, claimed_by)
           values ($1, $2, 'o', 60000, int8multirange(int8range(0, $3)),
                   now() - make_interval(days => $4, secs => $5), now() - make_interval(days => $4),
                   now() - make_interval(days => $4), $6)`,
          [l.id, track.id, (10 + i * 10) * 1000, daysAgo, 10 + i * 10, rows[0]!.id],
        );
      }
    await db.query(`select public.post_ledger_entry($1, 0.0126, 'play', $2)`, [
      artist.id,
      track.id,
    ]);
    const read = () =>
      asRole(db, artist.claims, async (tx) => {
        const { rows } = await tx.query<{ a: unknown; b: unknown }>(
          `select public.artist_insights('7d', null) as a, public.artist_insights('7d', $1) as b`,
          [track.id],
        );
        return rows[0]!;
      });
    const before = await read();
    const first = await db.query<{ n: number }>('select public.refresh_insights_rollups(10) as n');
    // 3 days ago up to yesterday (2 days ago in the first hour of a UTC day)
    expect(Number(first.rows[0]!.n)).toBeGreaterThanOrEqual(2);
    const rolled = await db.query<{ n: number }>(
      'select count(*)::int as n from public.insights_daily where track_id = $1',
      [track.id],
    );
    expect(rolled.rows[0]!.n).toBe(1);
    expect(await read()).toEqual(before);
    const again = await db.query<{ n: number }>('select public.refresh_insights_rollups(10) as n');
    expect(Number(again.rows[0]!.n)).toBe(0);
    const b = before.b as { totals: { plays: number; listeners: number }; curve: unknown[] };
    expect(b.totals.plays).toBe(12);
    expect(b.totals.listeners).toBe(6);
    expect(b.curve.length).toBe(61);
  });

  it('startInsightsRollups rolls up at its interval, and stops on close', async () => {
    await t.db.query(`delete from public.insights_rollup_days
                       where day = (select max(day) from public.insights_rollup_days)`);
    const logs: string[] = [];
    const rollups = startInsightsRollups(t.db, { intervalMs: 50, log: (m) => logs.push(m) });
    const deadline = Date.now() + 60_000;
    while (!logs.some((m) => m.includes('rolled up 1 day')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    await rollups.close();
    expect(logs).toContain('insights: rolled up 1 day(s)');
  });
});
