/**
 * Starting what the sync bench measures against: bench/sync-server.ts in a child process, on
 * PGlite or on a throwaway PostgreSQL 15 cluster (bench/postgres.ts), and loading src/data into
 * this Node process on fake-indexeddb.
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startChildServer } from './child-server';
import type { Cleanup } from './cleanup';
import type { BenchServer, DataApi } from './sync-client';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER_SCRIPT = fileURLToPath(new URL('./sync-server.ts', import.meta.url));

/** Starts bench/sync-server.ts with `env` added; stopped by `cleanup`. */
export function startSyncServer(
  tracks: number,
  env: NodeJS.ProcessEnv,
  cleanup: Cleanup,
): Promise<BenchServer> {
  return startChildServer<BenchServer>(
    SERVER_SCRIPT,
    { ...env, SYNC_BENCH_TRACKS: String(tracks) },
    cleanup,
    'sync bench server',
  );
}

/** src/data on fake-indexeddb, loaded by path (the bench TypeScript project does not compile src/). */
export async function loadDataInNode(): Promise<DataApi> {
  const fakeIndexedDb = 'fake-indexeddb/auto'; // untyped side-effect module: by name
  await import(fakeIndexedDb);
  // supabase-js builds its realtime client eagerly; Node 20 has no WebSocket of its own.
  if (!('WebSocket' in globalThis)) {
    Object.assign(globalThis, { WebSocket: (await import('ws')).WebSocket });
  }
  const load = (path: string) => import(pathToFileURL(join(ROOT, path)).href);
  const [db, client, remote, engine, repos] = await Promise.all([
    load('src/data/db/index.ts'),
    load('src/data/remote/create-client.ts'),
    load('src/data/remote/sync-remote.ts'),
    load('src/data/sync/engine.ts'),
    load('src/data/repositories/index.ts'),
  ]);
  return {
    createDb: db.createDb,
    createTokenClient: client.createTokenClient,
    createSyncRemote: remote.createSyncRemote,
    createSyncEngine: engine.createSyncEngine,
    createRepositories: repos.createRepositories,
    count: (d, table) =>
      (d as unknown as Record<typeof table, { count(): Promise<number> }>)[table].count(),
  } as DataApi;
}
