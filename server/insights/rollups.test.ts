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

/** A database nothing was rolled up in yet (a test before rolled up its past days). */
const forgetRollups = () =>
  t.db.exec(`truncate public.insights_rollup_days, public.insights_rollup_hours,
               public.insights_daily, public.insights_artist_daily,
               public.insights_sources_daily, public.insights_bucket_listeners,
               public.insights_track_listeners, public.insights_artist_listeners`);

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
    const first = await db.query<{ n: number }>('select public.refresh_insights_rollups(200) as n');
    // every hour from 3 days ago up to half an hour ago
    expect(Number(first.rows[0]!.n)).toBeGreaterThanOrEqual(3 * 24 - 2);
    const rolled = await db.query<{ n: number }>(
      'select count(*)::int as n from public.insights_daily where track_id = $1',
      [track.id],
    );
    expect(rolled.rows[0]!.n).toBeGreaterThanOrEqual(1);
    expect(await read()).toEqual(before);
    const again = await db.query<{ n: number }>('select public.refresh_insights_rollups(200) as n');
    expect(Number(again.rows[0]!.n)).toBe(0);
    const b = before.b as { totals: { plays: number; listeners: number }; curve: unknown[] };
    expect(b.totals.plays).toBe(12);
    expect(b.totals.listeners).toBe(6);
    expect(b.curve.length).toBe(61);
  });

  it('counts a listener once per window and per bucket, however many days they listened', async () => {
    const db = t.db;
    await forgetRollups();
    const artist = await createUser(db);
    const [a, b] = [
      await createTrack(db, artist, { duration: 60 }),
      await createTrack(db, artist, { duration: 60 }),
    ];
    const listeners = await Promise.all(Array.from({ length: 7 }, () => createUser(db)));
    // Seven listeners, each on 3 days (3, 2 and 1 days ago): five found both tracks by search,
    // two track a on explore (six plays, but two listeners: under 5, not shown).
    const daysAgo = [3, 2, 1];
    for (const d of daysAgo)
      for (const [i, l] of listeners.entries())
        for (const track of i < 5 ? [a, b] : [a]) {
          const { rows } = await db.query<{ id: string }>(
            `insert into public.play_events (listener_id, track_id, session_id, counted, played_at, created_at)
             values ($1, $2, gen_random_uuid()::text, true, now() - make_interval(days => $3),
                     now() - make_interval(days => $3)) returning id`,
            [l.id, track.id, d],
          );
          await db.query(`insert into public.play_sources (event_id, source) values ($1, $2)`, [
            rows[0]!.id,
            i < 5 ? 'search' : 'explore',
          ]);
        }
    type Read = {
      totals: { listeners: number };
      series: { listeners: number; plays: number }[];
      sources: { source: string; plays: number }[];
    };
    const read = (period: string, track: string | null) =>
      asRole(db, artist.claims, async (tx) => {
        const { rows } = await tx.query<{ r: Read }>(`select public.artist_insights($1, $2) as r`, [
          period,
          track,
        ]);
        return rows[0]!.r;
      });
    // The distinct weeks and months (UTC) the three days fall in.
    const utcDay = (d: number) => new Date(Date.now() - d * 86_400_000);
    const week = (d: number) => {
      const x = utcDay(d);
      x.setUTCDate(x.getUTCDate() - ((x.getUTCDay() + 6) % 7));
      return x.toISOString().slice(0, 10);
    };
    const month = (d: number) => utcDay(d).toISOString().slice(0, 7);
    const weeks = new Set(daysAgo.map(week)).size;
    const months = new Set(daysAgo.map(month)).size;
    const sum = (r: Read) => r.series.reduce((n, x) => n + x.listeners, 0);
    const check = async () => {
      for (const track of [null, a.id]) {
        const week7 = await read('7d', track);
        expect(week7.totals.listeners).toBe(7);
        // a day bucket per day: 7 listeners each (the catalogue's listener of two tracks once)
        expect(week7.series.filter((x) => x.plays > 0).map((x) => x.listeners)).toEqual([7, 7, 7]);
        expect(sum(await read('90d', track))).toBe(7 * weeks);
        expect(sum(await read('12m', track))).toBe(7 * months);
        // explore: 6 plays by 2 listeners joins 'other', which has 2 listeners: not shown
        expect(week7.sources).toEqual([{ source: 'search', plays: track ? 15 : 30 }]);
      }
    };
    await check(); // all live
    await db.query('select public.refresh_insights_rollups(200)');
    await check(); // rolled up by the hour
  });

  it('merges days of the same 2 listeners until 5 distinct listeners, never by summing days', async () => {
    const db = t.db;
    await forgetRollups();
    const artist = await createUser(db);
    const track = await createTrack(db, artist, { duration: 60 });
    const listeners = await Promise.all(Array.from({ length: 2 }, () => createUser(db)));
    for (const d of [3, 2, 1])
      for (const l of listeners)
        await db.query(
          `insert into public.play_events (listener_id, track_id, session_id, counted, played_at, created_at)
           values ($1, $2, gen_random_uuid()::text, true, now() - make_interval(days => $3),
                   now() - make_interval(days => $3))`,
          [l.id, track.id, d],
        );
    const series = async () =>
      asRole(db, artist.claims, async (tx) => {
        const { rows } = await tx.query<{
          r: { series: { plays: number | null; listeners: number | null; hidden?: boolean }[] };
        }>(`select public.artist_insights('7d', $1) as r`, [track.id]);
        return rows[0]!.r.series;
      });
    const check = async () => {
      // 6 plays by 2 people: the buckets with plays are shown only as "fewer than 5 listeners"
      // (summed, the three days' 2 + 2 + 2 listeners would have passed for 6)
      // The whole window is one hidden span (merged back past the empty days before it), and
      // the answer carries no figure of it.
      const s = await series();
      expect(s.length).toBe(1);
      expect(s[0]!.hidden).toBe(true);
      expect(s[0]!.plays).toBeNull();
      expect(s[0]!.listeners).toBeNull();
      expect(JSON.stringify(s)).not.toContain('mins');
    };
    await check(); // live
    await db.query('select public.refresh_insights_rollups(200)');
    await check(); // rolled up
  });

  it("shows a merged span's distinct listeners, not the sum of its days' counts", async () => {
    const db = t.db;
    await forgetRollups();
    const artist = await createUser(db);
    const track = await createTrack(db, artist, { duration: 60 });
    const [a, b, c, d, e, f, g, h] = await Promise.all(
      Array.from({ length: 8 }, () => createUser(db)),
    );
    const play = (l: { id: string }, daysAgo: number) =>
      db.query(
        `insert into public.play_events (listener_id, track_id, session_id, counted, played_at, created_at)
         values ($1, $2, gen_random_uuid()::text, true, now() - make_interval(days => $3),
                 now() - make_interval(days => $3))`,
        [l.id, track.id, daysAgo],
      );
    type Bucket = {
      since: string;
      plays: number;
      listeners: number;
      listeners_max?: number;
      merged: number;
    };
    const series = async () =>
      asRole(db, artist.claims, async (tx) => {
        const { rows } = await tx.query<{ r: { series: Bucket[] } }>(
          `select public.artist_insights('7d', $1) as r`,
          [track.id],
        );
        return rows[0]!.r.series.filter((x) => x.plays > 0);
      });
    // Small days only: a and b on 3 days each (6 plays), c 5 days ago, d and e the day before
    // yesterday. Day counts 2 + 3 + 4 = 9; distinct: 5.
    for (const l of [a!, b!]) for (const day of [6, 5, 4]) await play(l, day);
    await play(c!, 5);
    for (const l of [d!, e!]) await play(l, 4);
    // A big day among small ones: a and b 2 days ago, a, c, f, g, h yesterday (5: its sketch
    // holds them all), a, f, g, h today (merged back). Day counts 2 + 5 + 4 = 11; distinct: 6.
    for (const l of [a!, b!]) await play(l, 2);
    for (const l of [a!, c!, f!, g!, h!]) await play(l, 1);
    for (const l of [a!, f!, g!, h!]) await play(l, 0);
    const check = async () => {
      const s = await series();
      expect(s.map((x) => [x.merged, x.listeners, x.listeners_max])).toEqual([
        [3, 5, undefined],
        [3, 6, undefined],
      ]);
    };
    await check(); // live
    await db.query('select public.refresh_insights_rollups(200)');
    await check(); // rolled up
    // A big bucket of 7 listeners, sketched by its 5 smallest hashes (2–6), and small buckets'
    // listeners 1, 3 and 100: 3 is in it, 1 (below 6, not in the sketch) is not, 100 may be.
    const span = await db.query<{ l: number[] }>(
      `select public.insights_span_listeners('{"merged": 3, "small": [1, 3, 100, 1],
         "bigs": [{"listeners": 7, "mins": [2, 3, 4, 5, 6]}]}') as l`,
    );
    expect(span.rows[0]!.l).toEqual([8, 9]);
  });

  it('startInsightsRollups rolls up at its interval, and stops on close', async () => {
    // Forget the last hour (or, in the first half hour of a UTC day, the last day) rolled up.
    const { rows } = await t.db.query<{ n: number }>(
      `with h as (delete from public.insights_rollup_hours
                   where hour = (select max(hour) from public.insights_rollup_hours) returning 1)
       select count(*)::int as n from h`,
    );
    if (rows[0]!.n === 0)
      await t.db.query(`delete from public.insights_rollup_days
                         where day = (select max(day) from public.insights_rollup_days)`);
    const logs: string[] = [];
    const rollups = startInsightsRollups(t.db, { intervalMs: 50, log: (m) => logs.push(m) });
    const deadline = Date.now() + 60_000;
    while (!logs.some((m) => /rolled up \d+ hour/.test(m)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    await rollups.close();
    expect(logs.some((m) => /^insights: rolled up (1|24) hour\(s\)$/.test(m))).toBe(true);
  });
});
