/**
 * A fault-injecting HTTP proxy in front of the real REST server (tests/support/sync/
 * rest-server-process.mjs on PGlite persisted in a temporary directory), in its own process:
 * `node --import tsx fault-proxy-process.ts`. It prints the server's JSON line with `proxyUrl`
 * added (the harness reads it like the server's own), and owns the server process, so it can
 * kill it (SIGKILL) in the middle of a batch and start it again on the same data directory.
 *
 * Every request under /rest/v1 suffers, when a plan is set, one fault picked by a seeded PRNG
 * (docs/faults.md):
 * - drop-request: the connection is closed before anything reaches the server;
 * - drop-response: the request is applied, the connection closed before the answer;
 * - http-500 / http-429: answered by the proxy (429 with Retry-After: 1), nothing applied;
 * - timeout: no answer until the client gives up; then the request reaches the server late
 *   (a stale copy arriving after the client's retry);
 * - restart: the request reaches the server, which is killed (SIGKILL) mid-request and started
 *   again on the same data; until it is back, requests get 502;
 * - out-of-order: the answer is held 100-900 ms, so later requests are answered first.
 *
 * Control (JSON, on the proxy itself): POST /_faults/plan {seed, rate, weights, limit?}, POST
 * /_faults/next {kind} (the next batch suffers it), POST /_faults/off, GET /_faults/stats.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../../src/test/seeded-random';

export const FAULT_KINDS = [
  'drop-request',
  'drop-response',
  'http-500',
  'http-429',
  'timeout',
  'restart',
  'out-of-order',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

interface Plan {
  rate: number;
  /** At most this many faults, then none (default: no limit). */
  limit: number;
  weights: Partial<Record<FaultKind, number>>;
  random: () => number;
}

interface ServerLine {
  url: string;
  control: string;
  [key: string]: unknown;
}

const SERVER_SCRIPT = fileURLToPath(new URL('../sync/rest-server-process.mjs', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'soundloft-faults-'));

let server: ChildProcess | null = null;
let ports: Record<string, string> = {};
let restarting: Promise<void> | null = null;

function startServer(): Promise<ServerLine> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_SCRIPT], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, SYNC_TEST_DATA_DIR: dataDir, ...ports },
  });
  server = child;
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += String(chunk);
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(JSON.parse(line) as ServerLine);
    });
    child.on('exit', (code, signal) => {
      if (server === child) server = null;
      reject(new Error(`server exited (${code ?? signal}) before it was ready`));
    });
  });
}

const stats = {
  requests: 0,
  faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>,
  /** Requests answered 502 because the server was down (restarting). */
  serverDown: 0,
  restarts: 0,
  /** How long each restart took, SIGKILL to ready (ms). */
  restartMs: [] as number[],
  /** Answers delivered after the answer of a request that arrived later. */
  reordered: 0,
  /** How long clients waited on a request that was never answered before giving up (ms). */
  timeoutWaitMs: [] as number[],
  /** Timeouts the client never gave up on (the proxy's 120 s patience ran out first). */
  timeoutsNotAbandoned: 0,
  /** After a 429 (Retry-After: 1), how long until the same client's next request (ms). */
  retryAfterGapMs: [] as number[],
  /** How many times each mutation id reached the server (apply_mutations bodies forwarded). */
  deliveries: {} as Record<string, number>,
};
let plan: Plan | null = null;
/** Faults the next batches suffer, whatever the plan (POST /_faults/next). */
const forced: FaultKind[] = [];
/** When each client (by its Authorization header) last got a 429. */
const throttledAt = new Map<string, number>();
let arrived = 0;
let newestAnswered = 0;

/** Restarts hit batches (apply_mutations), mid-request; every other kind hits any request. */
function pick(isBatch: boolean): FaultKind | null {
  const next = isBatch ? forced.shift() : undefined;
  if (next) return next;
  if (!plan || plan.limit <= 0 || plan.random() >= plan.rate) return null;
  plan.limit -= 1;
  const entries = Object.entries(plan.weights).filter(
    ([k, w]) => (w ?? 0) > 0 && (isBatch || k !== 'restart'),
  ) as [FaultKind, number][];
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let r = plan.random() * total;
  for (const [kind, weight] of entries) {
    r -= weight;
    if (r < 0) return kind;
  }
  return entries.at(-1)?.[0] ?? null;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** Sends the request to the server; resolves with its whole answer. */
function forward(req: IncomingMessage, body: Buffer, onSent?: () => void): Promise<Answer> {
  if (req.url?.includes('/rpc/apply_mutations')) {
    try {
      const parsed = JSON.parse(String(body)) as { p_mutations?: { id: string }[] };
      for (const m of parsed.p_mutations ?? [])
        stats.deliveries[m.id] = (stats.deliveries[m.id] ?? 0) + 1;
    } catch {
      // not ours to judge: the server answers it
    }
  }
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, host: upstream.host };
    delete headers.connection;
    const out = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...headers, 'content-length': String(body.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 502,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    out.on('error', reject);
    out.end(body, onSent);
  });
}

function answer(res: ServerResponse, seq: number, a: Answer) {
  if (seq < newestAnswered) stats.reordered += 1;
  newestAnswered = Math.max(newestAnswered, seq);
  const headers = Object.fromEntries(
    Object.entries(a.headers).filter(([k]) => !HOP_BY_HOP.has(k.toLowerCase())),
  );
  res.writeHead(a.status, { ...headers, 'content-length': String(a.body.length) });
  res.end(a.body);
}

const json = (status: number, body: unknown, extra: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json', ...extra },
  body: Buffer.from(JSON.stringify(body)),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Kills the server with SIGKILL and starts it again on the same data directory and ports. */
function restart(): Promise<void> {
  restarting ??= (async () => {
    stats.restarts += 1;
    const began = Date.now();
    const old = server;
    if (old) {
      const gone = new Promise((resolve) => old.once('exit', resolve));
      old.kill('SIGKILL');
      await gone;
    }
    await startServer();
    stats.restartMs.push(Date.now() - began);
  })().finally(() => {
    restarting = null;
  });
  return restarting;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function control(req: IncomingMessage, res: ServerResponse, body: Buffer) {
  const reply = (value: unknown) => {
    const body = JSON.stringify(value);
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  };
  if (req.url === '/_faults/plan') {
    const { seed, rate, weights, limit } = JSON.parse(String(body)) as {
      seed: number;
      rate: number;
      weights: Plan['weights'];
      limit?: number;
    };
    plan = { rate, weights, limit: limit ?? Infinity, random: seededRandom(seed) };
    return reply({ ok: true });
  }
  if (req.url === '/_faults/next') {
    forced.push((JSON.parse(String(body)) as { kind: FaultKind }).kind);
    return reply({ ok: true });
  }
  if (req.url === '/_faults/off') {
    plan = null;
    return reply({ ok: true });
  }
  if (req.url === '/_faults/stats') return reply(stats);
  if (req.url === '/_faults/restart') {
    await restart();
    return reply({ ok: true });
  }
  res.writeHead(404).end();
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const body = await readBody(req);
  if (req.url?.startsWith('/_faults/')) return control(req, res, body);
  stats.requests += 1;
  const seq = ++arrived;
  const who = req.headers.authorization ?? '';
  const throttled = throttledAt.get(who);
  if (throttled !== undefined) {
    throttledAt.delete(who);
    stats.retryAfterGapMs.push(Date.now() - throttled);
  }
  if (restarting) {
    stats.serverDown += 1;
    return answer(res, seq, json(502, { message: 'Bad Gateway' }));
  }
  const fault = pick(Boolean(req.url?.includes('/rpc/apply_mutations')));
  if (fault) stats.faults[fault] += 1;
  const drop = () => req.socket.destroy();
  try {
    switch (fault) {
      case 'drop-request':
        return drop();
      case 'http-500':
        return answer(res, seq, json(500, { code: '', message: 'Internal Server Error' }));
      case 'http-429':
        throttledAt.set(who, Date.now());
        return answer(
          res,
          seq,
          json(429, { message: 'Too Many Requests' }, { 'retry-after': '1' }),
        );
      case 'drop-response':
        await forward(req, body);
        return drop();
      case 'timeout': {
        // Silent until the client gives up; then the request arrives late at the server.
        const began = Date.now();
        const abandoned = await new Promise<boolean>((resolve) => {
          res.once('close', () => resolve(true));
          setTimeout(() => resolve(false), 120_000).unref();
        });
        if (!abandoned) stats.timeoutsNotAbandoned += 1;
        stats.timeoutWaitMs.push(Date.now() - began);
        await sleep(200 + Math.random() * 800);
        if (!restarting) await forward(req, body).catch(() => undefined);
        return drop();
      }
      case 'restart': {
        const pending = forward(req, body, () => {
          // Mid-request: the server has the request (and may be applying it) when it dies.
          setTimeout(() => void restart(), Math.random() * 30);
        });
        await pending.catch(() => undefined);
        return drop();
      }
      case 'out-of-order': {
        const a = await forward(req, body);
        await sleep(100 + Math.random() * 800);
        return answer(res, seq, a);
      }
      default:
        return answer(res, seq, await forward(req, body));
    }
  } catch {
    // The server went away under this request (a restart): like a gateway, say so.
    if (!res.headersSent && !res.destroyed) {
      stats.serverDown += 1;
      return answer(res, seq, json(502, { message: 'Bad Gateway' }));
    }
    return drop();
  }
}

const first = await startServer();
/** The server's address: the same across restarts (fixed ports below). */
const upstream = new URL(first.url);
ports = {
  SYNC_TEST_REST_PORT: upstream.port,
  SYNC_TEST_CONTROL_PORT: new URL(first.control).port,
};
const proxy = createServer((req, res) => void handle(req, res));
proxy.listen(0, '127.0.0.1', () => {
  const address = proxy.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ ...first, proxyUrl: `http://127.0.0.1:${port}` })}\n`);
});

const shutdown = async () => {
  proxy.close();
  await restarting?.catch(() => undefined);
  const child = server;
  if (child) {
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  }
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
process.stdin.on('end', () => void shutdown());
process.stdin.resume();
