/**
 * Storage figures (issue 4): upload throughput of a 20 MB file, time to first byte of a Range
 * request, full-download throughput, on the real backend (startBackend + createApp, as
 * `npm start` serves them) with PGlite and the files on disk in a fresh temporary DATA_DIR.
 *
 * The server runs in this process on 127.0.0.1; the client (supabase-js and fetch) runs in a
 * child process (bench/storage-client.ts). Requests go one at a time. The server side is timed
 * by a wrapper around the app's fetch (request start → Response; the end of the request body
 * from the IncomingMessage's 'end') and around the object store's put (the file write).
 */
import { mkdtemp, rm, statfs } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type Http2Bindings, type HttpBindings, type ServerType } from '@hono/node-server';
import { startBackend } from '../server/backend';
import { loadConfig } from '../server/config';
import { createUser } from '../server/db/test-factories';
import { createApp } from '../server/http/app';
import { signHs256 } from '../server/keys';
import { Cleanup } from './cleanup';
import { startStorageClient, type ClientJob, type ClientResult } from './storage-protocol';

/** 20 × 10^6 bytes: MB below is 10^6 bytes. */
const FILE_BYTES = 20_000_000;
const UPLOADS = 5;
const READS = 200;
const WARMUPS = 10;
const RANGE_BYTES = 64 * 1024;
const DOWNLOADS = 5;
const CLIENT_TIMEOUT_MS = 120_000;
const JWT_SECRET = 'soundloft-bench-secret-at-least-32-characters';

interface UploadTrace {
  start: number;
  /** The request body's last byte was read by the handler. */
  bodyEnd?: number;
  end?: number;
  status?: number;
  /** ObjectStore.put (temporary file + rename). */
  putMs?: number;
}

/** Server-side timings: uploads by object name, reads (request start → Response) by kind. */
interface ServerTraces {
  uploads: Map<string, UploadTrace>;
  reads: Map<string, number[]>;
}

const UPLOAD_PATH = /^\/storage\/v1\/object\/tracks\/(.+)$/;

type Fetch = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

/** Wraps the app's fetch: times uploads into 'tracks' and reads tagged `x-bench`. */
function traced(fetch: Fetch, traces: ServerTraces): Fetch {
  return async (request, env) => {
    const start = performance.now();
    const kind = request.headers.get('x-bench');
    if (!kind) return fetch(request, env);
    const path = new URL(request.url).pathname;
    const upload = request.method === 'POST' ? UPLOAD_PATH.exec(path)?.[1] : undefined;
    if (upload) {
      const trace: UploadTrace = { start };
      traces.uploads.set(decodeURIComponent(upload), trace);
      env.incoming.once('end', () => {
        trace.bodyEnd = performance.now();
      });
      const res = await fetch(request, env);
      trace.end = performance.now();
      trace.status = res.status;
      return res;
    }
    const res = await fetch(request, env);
    const list = traces.reads.get(kind) ?? [];
    list.push(performance.now() - start);
    traces.reads.set(kind, list);
    return res;
  };
}

function listen(fetch: Fetch): Promise<{ url: string; server: ServerType }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, server }),
    );
    server.once('error', reject);
  });
}

function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Idle keep-alive sockets of the (gone) client must not hold the close.
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
}

/** File system of a path, by statfs magic number (the usual suspects only). */
async function fsType(path: string): Promise<string> {
  const names: Record<number, string> = {
    0xef53: 'ext4',
    0x58465342: 'xfs',
    0x9123683e: 'btrfs',
    0x01021994: 'tmpfs (memory)',
    0x794c7630: 'overlayfs',
    0x6a656a63: 'fakeowner',
  };
  try {
    const { type } = await statfs(path);
    return names[type] ?? `fs 0x${type.toString(16)}`;
  } catch {
    return 'unknown fs';
  }
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
/** Nearest-rank quantile (q in 0..1) of a non-empty list. */
function quantile(xs: number[], q: number): number {
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
}
const median = (xs: number[]) => {
  const s = sorted(xs);
  const mid = s.length / 2;
  return s.length % 2 ? (s[Math.floor(mid)] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};
const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '–';
const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);
const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    '  ' +
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

function printUploads(result: ClientResult, traces: ServerTraces) {
  const labels = {
    'upload-sbjs': 'supabase-js upload(File): multipart',
    'upload-raw': 'fetch POST, raw body',
  } as const;
  const rows = (['upload-sbjs', 'upload-raw'] as const).map((kind) => {
    const runs = result.uploads.filter((u) => u.kind === kind && !u.warmup);
    const rates = runs.map((u) => mbps(FILE_BYTES, u.ms));
    const server = runs.map((u) => traces.uploads.get(u.name));
    const pick = (f: (t: UploadTrace) => number | undefined) =>
      median(server.map((t) => (t ? (f(t) ?? NaN) : NaN)).filter(Number.isFinite));
    const bad = server.filter((t) => t?.status !== 200).length;
    return [
      labels[kind],
      fmt(median(rates), 0),
      fmt(Math.max(...rates), 0),
      fmt(median(runs.map((u) => u.ms))),
      fmt(pick((t) => (t.end ?? NaN) - t.start)),
      fmt(pick((t) => (t.bodyEnd ?? NaN) - t.start)),
      fmt(pick((t) => (t.end ?? NaN) - (t.bodyEnd ?? NaN))),
      fmt(pick((t) => t.putMs)),
      bad ? `${bad} untraced/failed` : '',
    ];
  });
  const head = [
    `upload, ${UPLOADS} runs each (after 1 warm-up)`,
    'MB/s p50',
    'MB/s best',
    'client ms',
    'server ms',
    'receive',
    'after body',
    'file write',
    '',
  ];
  for (const line of table(head, rows)) console.log(line);
}

function printReads(result: ClientResult, traces: ServerTraces) {
  const handler = (kind: string) => traces.reads.get(kind) ?? [];
  const row = (label: string, kind: 'range' | 'plain') => {
    const runs = result[kind];
    const ttfb = runs.map((r) => r.firstChunkMs);
    const headers = runs.map((r) => r.headersMs);
    return [
      label,
      fmt(runs.length),
      fmt(quantile(ttfb, 0.5), 2),
      fmt(quantile(ttfb, 0.95), 2),
      fmt(Math.max(...ttfb), 1),
      fmt(quantile(headers, 0.5), 2),
      fmt(quantile(handler(kind), 0.5), 2),
    ];
  };
  const head = [
    'GET, public URL (alternating)',
    'n',
    'TTFB p50 ms',
    'p95',
    'max',
    'headers p50',
    'server p50',
  ];
  const rangeLabel = `Range bytes=o-(o+${RANGE_BYTES / 1024}Ki−1), random o`;
  for (const line of table(head, [row(rangeLabel, 'range'), row('plain GET (no Range)', 'plain')]))
    console.log(line);
  const rates = result.downloads.map((ms) => mbps(FILE_BYTES, ms));
  console.log(
    `  full download of the ${FILE_BYTES / 1e6} MB object (${DOWNLOADS} runs): ${fmt(median(rates))} MB/s p50, ` +
      `${fmt(Math.max(...rates))} MB/s best (${fmt(median(result.downloads))} ms p50; server to Response p50 ${fmt(quantile(handler('download'), 0.5), 2)} ms)`,
  );
}

/** `npm run bench -- storage`. Prints as it goes; server, child and temp dir always go. */
export async function benchStorage(): Promise<void> {
  console.log(
    `\nStorage /storage/v1 (issue 4): a ${FILE_BYTES / 1e6} MB WAV into 'tracks' (MB = 10^6 bytes)`,
  );
  const cleanup = new Cleanup();
  let stopClient = () => {};
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: cleaning up`);
    stopClient();
    void cleanup.run().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const started = performance.now();
  try {
    const dataDir = await mkdtemp(join(tmpdir(), 'soundloft-bench-storage-'));
    cleanup.add(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));

    // Listen first (the backend wants its public URL); answer 503 until the app is ready.
    const traces: ServerTraces = { uploads: new Map(), reads: new Map() };
    let appFetch: Fetch | null = null;
    const { url, server } = await listen((request, env) =>
      appFetch ? appFetch(request, env) : new Response('starting', { status: 503 }),
    );
    cleanup.add('close HTTP server', () => closeServer(server));

    const backendStarted = performance.now();
    // Only what the bench means: no DATABASE_URL from the environment, no seeding.
    const env = { DATA_DIR: dataDir, SEED: 'none', JWT_SECRET, NODE_ENV: 'development' };
    const backend = await startBackend(env, { publicUrl: url });
    cleanup.add('close backend', () => backend.close());
    const backendMs = performance.now() - backendStarted;
    const app = createApp({
      distDir: loadConfig().distDir,
      mounts: backend.mounts,
      devConfig: backend.devConfig,
    });
    appFetch = traced((request, env) => app.fetch(request, env), traces);
    const store = backend.store;
    const put = store.put.bind(store);
    store.put = async (bucket, name, bytes) => {
      const t0 = performance.now();
      try {
        await put(bucket, name, bytes);
      } finally {
        const trace = bucket === 'tracks' ? traces.uploads.get(name) : undefined;
        if (trace) trace.putMs = performance.now() - t0;
      }
    };

    const user = await createUser(backend.db, { name: 'Bench Uploader' });
    const now = Math.floor(Date.now() / 1000);
    const token = signHs256({ ...user.claims, iat: now, exp: now + 3600 }, JWT_SECRET);

    console.log(
      `  backend: PGlite and files in ${dataDir} (${await fsType(dataDir)}), started in ` +
        `${(backendMs / 1000).toFixed(1)} s (initdb + migrations); server ${url}, client in a child process, ` +
        `one request at a time; load average ${la(loadavg())} before`,
    );
    const client = startStorageClient();
    stopClient = () => client.close();
    cleanup.add('stop storage client', stopClient);
    await client.ready;
    const job: ClientJob = {
      origin: url,
      anonKey: backend.keys.anonKey,
      token,
      userId: user.id,
      fileBytes: FILE_BYTES,
      uploads: UPLOADS,
      reads: READS,
      warmups: WARMUPS,
      rangeBytes: RANGE_BYTES,
      downloads: DOWNLOADS,
    };
    const result = await client.run(job, CLIENT_TIMEOUT_MS);
    stopClient();
    const loadAfter = loadavg();

    printUploads(result, traces);
    printReads(result, traces);
    const chunk = median(result.firstChunkBytes);
    console.log(
      [
        `  load average ${la(loadAfter)} after. Storage section: ${((performance.now() - started) / 1000).toFixed(0)} s.`,
        '',
        '  client ms: call → parsed answer in the client process; MB/s = 20 MB ÷ client ms. server ms:',
        '  request start → Response in the server (receive: until the body was read to its end;',
        '  after body: sniff, MD5, RLS insert and file write in one transaction; file write:',
        '  ObjectStore.put, temporary file + rename, no fsync). TTFB: fetch() → first body chunk',
        `  (median ${fmt(chunk / 1024, 0)} KiB for Range), then the body is cancelled; headers: fetch() resolved;`,
        `  server: request start → Response object. ${WARMUPS} warm-ups of each not counted; every Range`,
        '  answer is checked (206, Content-Range, bytes), every upload and download too.',
      ].join('\n'),
    );
  } finally {
    await cleanup.run();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
