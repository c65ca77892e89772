/**
 * Server-side search figures: 100,000 tracks seeded into a throwaway database, then the exact
 * request the app sends (src/data/remote/search-remote.ts: RPC search_tracks, newest first, 100
 * rows, migration 20261122004000) over /rest/v1, one at a time, for every keystroke of
 * the bench's typed queries. PGlite in memory, then PostgreSQL 15 when one is available
 * (bench/postgres.ts: TEST_DATABASE_URL, else a throwaway cluster).
 */
import { openTestDatabase } from '../server/db/test-database';
import { createUser, type TestUser } from '../server/db/test-factories';
import { loadKeys } from '../server/keys/keys';
import { startRestServer } from '../server/rest/serve';
import { normaliseSearch } from '../src/lib/substring-index';
import { Cleanup } from './cleanup';
import { startPostgres } from './postgres';
import {
  TYPED_QUERIES,
  benchTrackRow,
  keystrokes,
  makeCatalogue,
  ms,
  percentile,
} from './explore-catalogue';

const ROUNDS = 3;

/** Which RPC to time (the ranked search's is timed by bench/search-server.ts). */
export interface ServerSearchBench {
  fn: 'search_tracks';
  page: number;
  queries: readonly string[];
  title: string;
}

const EXPLORE: ServerSearchBench = {
  fn: 'search_tracks',
  page: 100,
  queries: TYPED_QUERIES,
  title: 'Explore search: server side over /rest/v1 (HTTP on loopback, one request at a time)',
};

async function benchOne(
  label: string,
  env: NodeJS.ProcessEnv,
  size: number,
  cleanup: Cleanup,
  opts: ServerSearchBench,
) {
  const keys = loadKeys({ JWT_SECRET: 'soundloft-bench-secret-at-least-32-characters' }, () => {});
  const test = await openTestDatabase(env);
  cleanup.add(`close ${label}`, () => test.close());
  const seeded = performance.now();
  const uploaders: TestUser[] = [];
  for (let i = 0; i < 20; i++) uploaders.push(await createUser(test.db, { name: `Artist ${i}` }));
  const tracks = makeCatalogue(size);
  // Bulk rows as a seed writes them: triggers off (upload limits, timestamps) for speed.
  for (let from = 0; from < tracks.length; from += 10_000) {
    const chunk = tracks
      .slice(from, from + 10_000)
      .map((t, k) => benchTrackRow(t, uploaders[k % uploaders.length]?.id));
    await test.db.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(
        `insert into public.tracks
           (id, title, artist, album, genre, duration, audio_url, uploaded_by, created_at, updated_at,
            status)
         select *, 'ready' from json_to_recordset($1::json) as r(id uuid, title text, artist text,
           album text, genre text, duration int, audio_url text, uploaded_by uuid,
           created_at timestamptz, updated_at timestamptz)`,
        [JSON.stringify(chunk)],
      );
    });
  }
  await test.db.exec('analyze public.tracks');
  const seedMs = performance.now() - seeded;
  const server = await startRestServer({ db: test.db, keys, hostname: '127.0.0.1' });
  cleanup.add(`close ${label} REST server`, () => server.close());
  const headers = {
    apikey: keys.anonKey,
    Authorization: `Bearer ${keys.anonKey}`,
    'Content-Type': 'application/json',
  };
  const request = async (typed: string) => {
    const res = await fetch(`${server.url}/rest/v1/rpc/${opts.fn}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ q: normaliseSearch(typed), max_results: opts.page }),
    });
    const rows = (await res.json()) as unknown[];
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(rows).slice(0, 200)}`);
    return { total: String(rows.length) };
  };
  const typed = keystrokes(opts.queries);
  for (const q of typed.slice(0, 10)) await request(q); // warm-up
  const times: number[] = [];
  const per = new Map<string, { ms: number; total: string }>();
  for (let r = 0; r < ROUNDS; r++) {
    for (const q of typed) {
      const t0 = performance.now();
      const { total } = await request(q);
      const took = performance.now() - t0;
      times.push(took);
      const seen = per.get(q);
      if (!seen || seen.ms < took) per.set(q, { ms: took, total });
    }
  }
  times.sort((a, b) => a - b);
  const full = opts.queries.map(
    (q) => `'${q}' ${ms(per.get(q)?.ms ?? NaN)} ms (${per.get(q)?.total})`,
  );
  const slowest = [...per.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 3);
  console.log(
    [
      `  ${label}: ${size.toLocaleString('en')} tracks seeded in ${(seedMs / 1000).toFixed(1)} s`,
      `    ${typed.length} keystroke queries × ${ROUNDS}, up to ${opts.page} rows each: ` +
        `p50 ${ms(percentile(times, 50))} ms  p95 ${ms(percentile(times, 95))} ms  max ${ms(percentile(times, 100))} ms`,
      `    whole queries (slowest round, rows returned): ${full.join(', ')}`,
      `    slowest: ${slowest.map(([q, v]) => `'${q}' ${ms(v.ms)} ms (${v.total})`).join(', ')}`,
    ].join('\n'),
  );
}

export async function benchServerSearch(
  size: number,
  opts: ServerSearchBench = EXPLORE,
): Promise<void> {
  console.log(`\n${opts.title}`);
  const outer = new Cleanup();
  const onSignal = () => void outer.run().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  try {
    const inner = new Cleanup();
    try {
      await benchOne('PGlite, in memory', {}, size, inner, opts);
    } finally {
      await inner.run();
    }
    const server = await startPostgres(outer, 'explore');
    if (typeof server === 'string') console.log(`  PostgreSQL: ${server}: skipped`);
    else {
      const pg = new Cleanup();
      try {
        await benchOne('PostgreSQL 15', { TEST_DATABASE_URL: server.url }, size, pg, opts);
      } finally {
        await pg.run();
      }
    }
  } finally {
    await outer.run();
    process.off('SIGINT', onSignal);
  }
}
