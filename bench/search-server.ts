/**
 * The server half of `npm run bench -- search` (issue 33, docs/search.md "Server: search_catalogue
 * at 100,000 tracks"): 100,000 generated tracks (bench/explore-catalogue.ts, with plays and a
 * lyrics sheet on every tenth) seeded into PostgreSQL 15, then search_catalogue called through
 * /rest/v1 for every keystroke of the search queries, one at a time, as the app calls it
 * (src/data/remote/search-remote.ts: the typed text, 20 rows). Prints p50/p95 with the load
 * average beside, and the slowest texts. Seeding and the timed calls take a few minutes.
 */
import { loadavg } from 'node:os';
import type { Database } from '../server/db/database';
import { openTestDatabase } from '../server/db/test-database';
import { createUser, type TestUser } from '../server/db/test-factories';
import { loadKeys } from '../server/keys/keys';
import { startRestServer } from '../server/rest/serve';
import { Cleanup } from './cleanup';
import { benchTrackRow, keystrokes, makeCatalogue, ms, percentile } from './explore-catalogue';
import { postgresCpuMicros, startPostgres } from './postgres';

const ROUNDS = 3;
const PAGE = 20;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/**
 * Seeds `size` tracks as a seed writes them (triggers off), with plays (0..49,999) and, on every
 * tenth track, a lyrics sheet of four lines made of other tracks' titles; then analyzes.
 */
export async function seedSearchCatalogue(db: Database, size: number): Promise<void> {
  const uploaders: TestUser[] = [];
  for (let i = 0; i < 20; i++) uploaders.push(await createUser(db, { name: `Artist ${i}` }));
  const tracks = makeCatalogue(size);
  for (let from = 0; from < tracks.length; from += 10_000) {
    const chunk = tracks.slice(from, from + 10_000).map((t, k) => {
      const i = from + k;
      return {
        ...benchTrackRow(t, uploaders[i % uploaders.length]?.id),
        plays: (i * 7919) % 50_000,
        lyrics:
          i % 10 === 0
            ? [1, 2, 3, 4].map((d, n) => ({
                id: `l${n}`,
                text: tracks[(i + d * 37) % tracks.length]?.title ?? '',
                timestamp: n * 5,
              }))
            : null,
      };
    });
    await db.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(
        `with r as (
           select * from json_to_recordset($1::json) as r(id uuid, title text, artist text,
             album text, genre text, duration int, audio_url text, uploaded_by uuid, plays int,
             created_at timestamptz, updated_at timestamptz, lyrics jsonb)
         ), t as (
           insert into public.tracks (id, title, artist, album, genre, duration, audio_url,
             uploaded_by, plays, created_at, updated_at, status)
           select id, title, artist, album, genre, duration, audio_url, uploaded_by, plays,
             created_at, updated_at, 'ready' from r
         )
         insert into public.track_lyrics (track_id, lyrics)
         select id, lyrics from r where lyrics is not null`,
        [JSON.stringify(chunk)],
      );
    });
  }
  // Statistics only, no vacuum: the search tables must be fast straight after a bulk load.
  await db.exec('analyze');
}

export interface ServerSearchFigures {
  p50: number;
  p95: number;
  max: number;
  load: string;
  /** PostgreSQL's CPU time per search (all its processes, from /proc), mean; null if unknown. */
  cpuMs: number | null;
}

/**
 * Seeds PostgreSQL 15 (TEST_DATABASE_URL when on loopback, else a throwaway cluster) with `size`
 * tracks and times search_catalogue through /rest/v1, one request at a time, every keystroke
 * of `queries` × 3 rounds (after one warm-up round). Prints and returns the figures; null when
 * no PostgreSQL is at hand.
 */
export async function benchCatalogueSearchServer(
  size: number,
  queries: readonly string[],
): Promise<ServerSearchFigures | null> {
  console.log(
    `\nRanked search on the server: search_catalogue over /rest/v1, PostgreSQL 15, ${size.toLocaleString('en')} tracks`,
  );
  const cleanup = new Cleanup();
  const onSignal = () => void cleanup.run().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  try {
    const pg = await startPostgres(cleanup, 'search');
    if (typeof pg === 'string') {
      console.log(`  PostgreSQL: ${pg}: skipped`);
      return null;
    }
    const keys = loadKeys(
      { JWT_SECRET: 'soundloft-bench-secret-at-least-32-characters' },
      () => {},
    );
    const test = await openTestDatabase({ TEST_DATABASE_URL: pg.url });
    cleanup.add('drop the bench database', () => test.close());
    const seeding = performance.now();
    await seedSearchCatalogue(test.db, size);
    const seedSeconds = (performance.now() - seeding) / 1000;
    const server = await startRestServer({ db: test.db, keys, hostname: '127.0.0.1' });
    cleanup.add('close the REST server', () => server.close());
    const headers = {
      apikey: keys.anonKey,
      Authorization: `Bearer ${keys.anonKey}`,
      'Content-Type': 'application/json',
    };
    const request = async (q: string) => {
      const res = await fetch(`${server.url}/rest/v1/rpc/search_catalogue`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ q, max_results: PAGE }),
      });
      const rows = (await res.json()) as unknown[];
      if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(rows).slice(0, 200)}`);
      return rows.length;
    };
    const typed = keystrokes(queries);
    for (const q of typed) await request(q); // warm-up: caches and plans, as a running server has
    const loadBefore = load();
    const port = Number(new URL(pg.url).port);
    const cpuBefore = postgresCpuMicros(port);
    const times: number[] = [];
    const slowest = new Map<string, { ms: number; rows: number }>();
    for (let r = 0; r < ROUNDS; r++)
      for (const q of typed) {
        const t0 = performance.now();
        const rows = await request(q);
        const took = performance.now() - t0;
        times.push(took);
        const seen = slowest.get(q);
        if (!seen || seen.ms < took) slowest.set(q, { ms: took, rows });
      }
    const cpuAfter = postgresCpuMicros(port);
    // CPU time PostgreSQL spent per search: what the load average does not change (much).
    const cpuMs =
      cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / 1000 / times.length;
    times.sort((a, b) => a - b);
    const figures = {
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      max: percentile(times, 100),
      load: `${loadBefore} before, ${load()} after`,
      cpuMs,
    };
    const worst = [...slowest.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 5);
    console.log(
      [
        `  ${pg.how}; seeded in ${seedSeconds.toFixed(1)} s (with 10 % lyrics sheets)`,
        `  ${typed.length} keystroke texts × ${ROUNDS}, ${PAGE} rows each, anon, one at a time:`,
        `  p50 ${ms(figures.p50)} ms  p95 ${ms(figures.p95)} ms  max ${ms(figures.max)} ms` +
          `  (goal p95 ≤ 30 ms; load average ${figures.load})`,
        `  PostgreSQL CPU time per search: ${cpuMs === null ? 'unknown' : `${ms(cpuMs)} ms`} (mean)`,
        `  slowest: ${worst.map(([q, v]) => `'${q}' ${ms(v.ms)} ms (${v.rows} rows)`).join(', ')}`,
      ].join('\n'),
    );
    return figures;
  } finally {
    await cleanup.run();
    process.off('SIGINT', onSignal);
  }
}
