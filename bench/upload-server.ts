/**
 * The server of `npm run bench -- upload`, in its own process: the backend as `npm start` runs it
 * (startBackend + createApp: PGlite and the files on disk in UPLOAD_BENCH_DATA_DIR, processing on
 * PROCESSING_WORKERS worker threads) on 127.0.0.1. One change, printed by the bench: the audio
 * limit is raised to 64 MiB (the bucket's `file_size_limit` and the global cap), because a
 * 5-minute 16-bit stereo 44.1 kHz WAV is 52.9 MB, over the product's 50 MiB.
 *
 * Prints one JSON line when ready ({url, anonKey, token, userId}), then one JSON line per log
 * line of the backend ({log}); the processing log line carries the stage timings. GET
 * /_bench/cpu answers this process's `process.cpuUsage()` (µs, every thread).
 */
import type { AddressInfo } from 'node:net';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { startBackend } from '../server/backend';
import { loadConfig } from '../server/config';
import { createUser } from '../server/db/test-factories';
import { createApp } from '../server/http/app';
import { userToken } from '../server/keys/keys';
import { createStorageApp } from '../server/storage/app';

export const BENCH_AUDIO_LIMIT = 64 * 1024 * 1024;
const JWT_SECRET = 'soundloft-bench-secret-at-least-32-characters';

const dataDir = process.env.UPLOAD_BENCH_DATA_DIR;
if (!dataDir) throw new Error('UPLOAD_BENCH_DATA_DIR is required');

let ready = false;
const log = (message: string) => {
  if (ready) process.stdout.write(`${JSON.stringify({ log: message })}\n`);
};

// Listen first (the backend wants its public URL); 503 until the app is there.
type Bindings = HttpBindings | Http2Bindings;
let appFetch: ((request: Request, env: Bindings) => Response | Promise<Response>) | null = null;
const server = serve(
  {
    fetch: (request, env: Bindings) =>
      appFetch ? appFetch(request, env) : new Response('starting', { status: 503 }),
    port: 0,
    hostname: '127.0.0.1',
  },
  () => undefined,
);
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const env = {
  DATA_DIR: dataDir,
  SEED: 'none',
  JWT_SECRET,
  NODE_ENV: 'development',
  PROCESSING_WORKERS: process.env.PROCESSING_WORKERS ?? '2',
};
const backend = await startBackend(env, { publicUrl: url, log });
await backend.db.query(`update storage.buckets set file_size_limit = $1 where id = 'tracks'`, [
  BENCH_AUDIO_LIMIT,
]);
const mounts = backend.mounts.map((mount) =>
  mount.path === '/storage/v1'
    ? {
        path: mount.path,
        app: createStorageApp({
          db: backend.db,
          keys: backend.keys,
          store: backend.store,
          dataDir,
          onSignedRead: backend.plays.onSignedRead,
          fileSizeLimit: BENCH_AUDIO_LIMIT,
        }),
      }
    : mount,
);
const app = createApp({ distDir: loadConfig().distDir, mounts, devConfig: backend.devConfig });
// The bench's one addition: this process's CPU time (all threads), to tell work from waiting.
appFetch = (request, bindings) =>
  new URL(request.url).pathname === '/_bench/cpu'
    ? Response.json(process.cpuUsage())
    : app.fetch(request, bindings);

const user = await createUser(backend.db, { name: 'Bench Artist' });
ready = true;
process.stdout.write(
  `${JSON.stringify({
    url,
    anonKey: backend.keys.anonKey,
    token: userToken(user.id, JWT_SECRET, 4 * 3600),
    userId: user.id,
  })}\n`,
);

const shutdown = async () => {
  server.close();
  if ('closeAllConnections' in server) server.closeAllConnections();
  await backend.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
process.stdin.on('end', () => void shutdown());
process.stdin.resume();
