/**
 * Starting what the sync bench measures against: bench/sync-server.ts in a child process, on
 * PGlite or on a throwaway PostgreSQL 15 cluster (scripts/pg-test-cluster.sh, as bench/rest.ts
 * starts it), and loading src/data into this Node process on fake-indexeddb.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Cleanup } from './cleanup';
import type { BenchServer, DataApi } from './sync-client';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER_SCRIPT = fileURLToPath(new URL('./sync-server.ts', import.meta.url));
const CLUSTER_SCRIPT = fileURLToPath(new URL('../scripts/pg-test-cluster.sh', import.meta.url));

/** Starts bench/sync-server.ts with `env` added; stopped by `cleanup`. */
export async function startSyncServer(
  tracks: number,
  env: NodeJS.ProcessEnv,
  cleanup: Cleanup,
): Promise<BenchServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, ...env, SYNC_BENCH_TRACKS: String(tracks) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanup.add('stop the sync bench server', async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
  return new Promise<BenchServer>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += String(c);
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve(JSON.parse(out.slice(0, newline)) as BenchServer);
    });
    child.once('exit', (code) => reject(new Error(`sync bench server exited ${code}: ${stderr}`)));
  });
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

function sh(args: [string, ...string[]], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(args[0], args.slice(1), { env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${args.join(' ')}: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

const loopback = (url: string) =>
  ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/** TEST_DATABASE_URL (loopback only), else a throwaway cluster; null (with a reason) when neither. */
export async function postgresUrl(
  cleanup: Cleanup,
): Promise<{ url: string; how: string } | string> {
  const given = process.env.TEST_DATABASE_URL;
  if (given)
    return loopback(given)
      ? { url: given, how: 'TEST_DATABASE_URL' }
      : 'TEST_DATABASE_URL is not loopback';
  const bin = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
  if (!existsSync(`${bin}/initdb`))
    return `binaries not found in ${bin} (set PG_BIN or TEST_DATABASE_URL)`;
  // A private state file: another session's `pg-test-cluster.sh stop` cannot stop ours.
  const env = {
    ...process.env,
    PG_TEST_STATE_FILE: join(tmpdir(), `soundloft-bench-sync-pg-${process.pid}`),
  };
  const url = (await sh([CLUSTER_SCRIPT, 'start'], env)).trim().split('\n').pop() ?? '';
  const port = new URL(url).port;
  cleanup.add(`stop cluster on port ${port}`, async () => {
    await sh([CLUSTER_SCRIPT, 'stop', port], env);
  });
  if (!loopback(url)) throw new Error(`cluster not on loopback: ${url}`);
  return { url, how: `throwaway cluster on port ${port}` };
}
