/**
 * Local-first data layer figures (issue 6), `npm run bench -- sync`: the app's own src/data
 * (Dexie mirror, repositories + outbox, sync engine, supabase-js) against the real embedded REST
 * server (bench/sync-server.ts, a child process) on PGlite and on PostgreSQL 15:
 * - local write latency: likes.toggle = mirror change + outbox entry in one Dexie transaction;
 * - replay throughput of 1,000 queued likes through apply_mutations (goal >= 500 ops/s);
 * - incremental pull of 1,000 changed rows (the likes, on another device of the same user);
 * - first full load (fetchAllData) of a fresh device with 5,000 tracks in the catalogue.
 * Each in Node on fake-indexeddb and in Chromium on real IndexedDB (the honest client figure).
 * SYNC_BENCH_WRITES and SYNC_BENCH_TRACKS override 1,000 and 5,000.
 */
import { loadavg } from 'node:os';
import { Cleanup } from './cleanup';
import { startPostgres } from './postgres';
import { loadDataInNode, startSyncServer } from './sync-backend';
import { measureSyncInChromium } from './sync-browser';
import { measureSync, type BenchServer, type SyncFigures } from './sync-client';

const WRITES = Number(process.env.SYNC_BENCH_WRITES) || 1000;
const TRACKS = Math.max(WRITES + 1, Number(process.env.SYNC_BENCH_TRACKS) || 5000);
const FULL_LOADS = 3;
const GOAL_OPS = 500;

const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;

function print(label: string, f: SyncFigures) {
  console.log(`  ${label}`);
  console.log(
    `    local write (likes.toggle, ${f.writes.n}x)   p50 ${ms(f.writes.p50)}  p95 ${ms(f.writes.p95)}  mean ${ms(f.writes.mean)}`,
  );
  const goal = f.replay.opsPerSecond >= GOAL_OPS ? 'meets' : 'MISSES';
  console.log(
    `    replay ${f.replay.n} queued likes           ${f.replay.opsPerSecond.toFixed(0)} ops/s (${ms(f.replay.ms)}; ${goal} the goal of >= ${GOAL_OPS}); server holds ${f.replay.serverRows}`,
  );
  console.log(
    `    incremental pull, ${f.incrementalPull.rows} changed rows   ${ms(f.incrementalPull.ms)} (mirror then holds ${f.incrementalPull.mirrorLikes} likes)`,
  );
  console.log(
    `    first full load, ${f.fullLoad.tracks} tracks      median ${ms(f.fullLoad.median)} (runs: ${f.fullLoad.ms.map((x) => x.toFixed(0)).join(', ')} ms)`,
  );
}

const load = () => `load average ${(loadavg()[0] ?? 0).toFixed(1)}`;

async function onBackend(label: string, server: BenchServer) {
  console.log(`\n  ${label} (${load()})`);
  const api = await loadDataInNode();
  print(
    `Node ${process.version} + fake-indexeddb (an IndexedDB written in JavaScript: not a browser figure)`,
    await measureSync(api, server, WRITES, FULL_LOADS),
  );
  try {
    print(
      'Chromium (headless), real IndexedDB',
      await measureSyncInChromium(server, WRITES, FULL_LOADS),
    );
  } catch (error) {
    console.log(`  Chromium: skipped (${(error as Error).message.split('\n')[0]})`);
  }
}

/** `npm run bench -- sync`. Every child process and cluster is stopped, on error too. */
export async function benchSync(): Promise<void> {
  console.log(
    `\nSync (issue 6): src/data against the REST server in a child process; ${WRITES} likes, ${TRACKS} tracks`,
  );
  const cleanup = new Cleanup();
  const onSignal = () => void cleanup.run().then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  try {
    await onBackend('PGlite, in memory', await startSyncServer(TRACKS, {}, cleanup));
    const pg = await startPostgres(cleanup, 'sync');
    if (typeof pg === 'string') console.log(`\n  PostgreSQL: skipped (${pg})`);
    else {
      await onBackend(
        `PostgreSQL 15 (${pg.how})`,
        await startSyncServer(TRACKS, { TEST_DATABASE_URL: pg.url }, cleanup),
      );
    }
  } finally {
    process.off('SIGINT', onSignal);
    await cleanup.run();
  }
}
