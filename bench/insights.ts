/**
 * `npm run bench -- insights` (issue 35, docs/insights.md): /insights' one call,
 * `artist_insights`, for an artist with 1,000,000 counted plays in the window (the last 30 days
 * by default), on PostgreSQL 15. The evidence is generated as the server records it
 * (served_audio rows claimed by counted play_events with their sources, ledger entries per track
 * and day), set-based; the worker's roll-up (`refresh_insights_rollups`) rolls every past hour
 * up, the last hour or so stays raw (the live part), and the artist calls the RPC through the
 * REST gateway for each period, for the catalogue and for one track. Prints p50/p95 per call and
 * over all calls with the load average. Target: p95 ≤ 300 ms. */
import { loadavg } from 'node:os';
import { claimsFor, createTrack, createUser } from '../server/db/test-factories';
import { openTestDatabase } from '../server/db/test-database';
import { loadKeys, signHs256 } from '../server/keys/keys';
import { startRestServer } from '../server/rest/serve';
import { Cleanup } from './cleanup';
import { startPostgres } from './postgres';

const PLAYS = Number(process.env.BENCH_INSIGHTS_PLAYS) || 1_000_000;
/**
 * The days the plays span (BENCH_INSIGHTS_DAYS, 1..365; default 30: 1M plays in the 30-day
 * window). The roll-up's cost is per play (about 8 minutes for 1M on the loaded 2-core machine,
 * docs/insights.md) plus a few ms per empty hour.
 */
const DAYS = Math.min(365, Math.max(1, Number(process.env.BENCH_INSIGHTS_DAYS) || 30));
const TRACKS = 20;
const LISTENERS = 50_000;
const ROUNDS = 30;

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export async function benchInsights(): Promise<void> {
  console.log(
    `\nInsights (artist_insights with ${PLAYS.toLocaleString('en-GB')} plays in the window):`,
  );
  const cleanup = new Cleanup();
  try {
    const pg = await startPostgres(cleanup, 'insights');
    if (typeof pg === 'string') {
      console.log(`  PostgreSQL: ${pg}: skipped`);
      return;
    }
    const test = await openTestDatabase({ ...process.env, TEST_DATABASE_URL: pg.url });
    cleanup.add('close the database', () => test.close());
    const db = test.db;
    const keys = loadKeys({ JWT_SECRET: 'insights-bench-secret-at-least-32-characters' }, () => {});

    let t0 = performance.now();
    const artist = await createUser(db, { established: true, name: 'Bench Artist' });
    const tracks: string[] = [];
    for (let i = 0; i < TRACKS; i++)
      tracks.push((await createTrack(db, artist, { title: `Track ${i}`, duration: 180 })).id);
    await db.query(
      `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                               raw_app_meta_data, raw_user_meta_data, created_at)
       select gen_random_uuid(), 'authenticated', 'authenticated', 'l' || g || '@bench.test', 'x',
              now() - interval '2 years', '{"provider":"email"}', '{}', now() - interval '2 years'
         from generate_series(1, $1) g`,
      [LISTENERS],
    );
    await db.query(`alter table public.play_events disable trigger play_events_attach_source`);
    // Plays over the last DAYS days (1 in DAYS today: the live part), each with its evidence.
    await db.query(
      `create temporary table bench_plays as
       select g, (array(select id from public.profiles where email like '%@bench.test'))[1 + g % $2] as listener,
              ($3::uuid[])[1 + (g / $5) % $4] as track,
              now() - make_interval(secs => (g % $5) * 86400 + (g::bigint * 7919) % 80000) as at
         from generate_series(1, $1) g`,
      [PLAYS, LISTENERS, tracks, TRACKS, DAYS],
    );
    await db.query(
      `insert into public.play_events (id, listener_id, track_id, session_id, played_at, created_at, counted, served_seconds)
       select md5('e' || g)::uuid, listener, track, 'bench-' || g, at, at, true, 40 from bench_plays`,
    );
    await db.query(
      `insert into public.play_sources (event_id, source, playlist_id)
       select md5('e' || g)::uuid,
              (array['search','explore','playlist','artist_page','shared_link','offline'])[1 + g % 6], null
         from bench_plays`,
    );
    // What each listener was served: from the start to a point that depends on the play, at
    // the pace of playback; one in ten also after a seek.
    await db.query(
      `insert into public.served_audio (listener_id, track_id, object, object_size, bytes,
          first_served_at, last_served_at, claimed_at, claimed_by)
       select listener, track, 'renditions/' || track || '/standard.mp3', 1800000,
              case when g % 10 = 0
                   then int8multirange(int8range(0, 10000 * (30 + g % 151)), int8range(1700000, 1800000))
                   else int8multirange(int8range(0, 10000 * (30 + g % 151))) end,
              at - make_interval(secs => 30 + g % 151), at, at, md5('e' || g)::uuid
         from bench_plays`,
    );
    await db.query(
      `insert into public.earnings_ledger (user_id, amount, kind, track_id, created_at)
       select $1, count(*) * public.play_rate_eur(), 'play', track, date_trunc('day', at) + interval '12 hours'
         from bench_plays group by track, date_trunc('day', at)`,
      [artist.id],
    );
    await db.query(`alter table public.play_events enable trigger play_events_attach_source`);
    await db.query('analyze');
    const genMs = performance.now() - t0;
    console.log(
      `  generated ${PLAYS.toLocaleString('en-GB')} plays over ${DAYS} days of ${TRACKS} tracks by ${LISTENERS.toLocaleString('en-GB')} listeners ` +
        `with their evidence in ${(genMs / 1000).toFixed(0)} s`,
    );

    // The worker's catch-up: every hour over for insights_rollup_delay(), a day (24 hours) a call.
    t0 = performance.now();
    let hours = 0;
    for (;;) {
      const { rows } = await db.query<{ n: number }>(
        'select public.refresh_insights_rollups(24) as n',
      );
      const n = Number(rows[0]?.n ?? 0);
      hours += n;
      if (n === 0) break;
    }
    const rollMs = performance.now() - t0;
    const live = await db.query<{ plays: number; since: string }>(
      `select count(*)::int as plays, public.insights_live_from()::text as since
         from public.play_events where created_at >= public.insights_live_from()`,
    );
    console.log(
      `  roll-up: ${hours} hours in ${(rollMs / 1000).toFixed(0)} s ` +
        `(${(rollMs / Math.max(hours, 1)).toFixed(0)} ms an hour, ` +
        `${((rollMs * 24) / Math.max(hours, 1) / 1000).toFixed(1)} s a day of ` +
        `${Math.round(PLAYS / DAYS).toLocaleString('en-GB')} plays; load ${load()}); again: ` +
        `${(await db.query<{ n: number }>('select public.refresh_insights_rollups(24) as n')).rows[0]?.n} hours; ` +
        `live part: ${live.rows[0]?.plays} raw plays since ${live.rows[0]?.since}`,
    );
    // What autovacuum does after the roll-up's writes (visibility map: index-only counts).
    await db.query('vacuum analyze');

    const server = await startRestServer({ db, keys, hostname: '127.0.0.1' });
    cleanup.add('close the REST server', () => server.close());
    const token = signHs256({ ...claimsFor(artist.id, artist.email) }, keys.jwtSecret);
    const call = async (body: Record<string, unknown>) => {
      const started = performance.now();
      const res = await fetch(`${server.url}/rest/v1/rpc/artist_insights`, {
        method: 'POST',
        headers: {
          apikey: keys.anonKey,
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { totals?: { plays: number } };
      if (res.status !== 200)
        throw new Error(`artist_insights: ${res.status} ${JSON.stringify(json)}`);
      return { ms: performance.now() - started, plays: json.totals?.plays ?? 0 };
    };
    const cases: [string, Record<string, unknown>][] = [
      ['catalogue, 12 months', { p_period: '12m' }],
      ['catalogue, 90 days', { p_period: '90d' }],
      ['catalogue, 30 days', { p_period: '30d' }],
      ['catalogue, 7 days', { p_period: '7d' }],
      ['one track, 12 months', { p_period: '12m', p_track: tracks[0] }],
      ['one track, 30 days', { p_period: '30d', p_track: tracks[0] }],
    ];
    const all: number[] = [];
    for (const [name, body] of cases) {
      await call(body); // warm
      const times: number[] = [];
      let plays = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const r = await call(body);
        times.push(r.ms);
        plays = r.plays;
      }
      times.sort((a, b) => a - b);
      all.push(...times);
      console.log(
        `  ${name.padEnd(22)} ${plays.toLocaleString('en-GB').padStart(9)} plays: ` +
          `p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms ` +
          `(load ${load()})`,
      );
    }
    all.sort((a, b) => a - b);
    console.log(
      `  all calls: p50 ${percentile(all, 50).toFixed(0)} ms, p95 ${percentile(all, 95).toFixed(0)} ms over ${all.length} calls ` +
        `(target ≤ 300 ms; load average ${load()}, ${pg.how})`,
    );
  } finally {
    await cleanup.run();
  }
}
