/**
 * `npm run test:faults`: SIGTERM drains a node (server/ops/drain.ts, docs/deploy.md). Two nodes
 * (`server/main.ts`, as `npm start` runs it) stand behind a loopback TCP load balancer that
 * sends each new connection to node A, or to node B when A refuses it. While a 24 MB download
 * from A is in flight, A gets SIGTERM:
 *
 * - /readyz answers 503 before anything is refused (DRAIN_DELAY_MS);
 * - then new connections to A are refused, while the download is still unfinished;
 * - A's realtime sockets close with 1012 "service restart", and a realtime-js client reconnects
 *   through the balancer to B, rejoins its channel and receives a broadcast sent on B;
 * - the download completes, every byte, after the refusal;
 * - A exits 0, saying it drained (not cut at the deadline).
 *
 * Nothing waits for a duration: every step waits for the event it checks.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RealtimeClient } from '@supabase/realtime-js';
import WebSocket from 'ws';
import { afterAll, expect, it } from 'vitest';
import { freePort, sleep, spawnLoggedServer } from './support';
import { loadKeys } from '../../../server/keys/keys';

const SECRET = 'drain-test-secret-that-is-at-least-32-characters';
const keys = loadKeys({ JWT_SECRET: SECRET }, () => undefined);
const distDir = mkdtempSync(join(tmpdir(), 'soundloft-drain-dist-'));
const children: ChildProcess[] = [];
let balancer: Server | null = null;
const realtimeClients: RealtimeClient[] = [];

afterAll(async () => {
  for (const c of realtimeClients) await c.disconnect();
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  balancer?.close();
  rmSync(distDir, { recursive: true, force: true });
});

interface Node {
  child: ChildProcess;
  port: number;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm start` on an in-memory database, without build, seed or jobs; resolves when ready. */
async function startNode(port: number): Promise<Node> {
  const {
    child,
    output: logged,
    exited,
  } = spawnLoggedServer({
    PORT: String(port),
    DATA_DIR: 'memory',
    DIST_DIR: distDir,
    JWT_SECRET: SECRET,
    LOG_FORMAT: 'text',
    // Long enough for this test's /readyz poll to see the 503 before the listener closes.
    DRAIN_DELAY_MS: '4000',
  });
  children.push(child);
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (gone) throw new Error(`node exited before it was ready: ${logged()}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { child, port, url, output: logged, exited };
    await sleep(200);
  }
}

/** Each new connection goes to the first port that accepts it; records where it went. */
function startBalancer(ports: number[], routed: number[]): Promise<number> {
  balancer = createServer((client: Socket) => {
    client.on('error', () => undefined);
    const attempt = (i: number) => {
      const port = ports[i];
      if (port === undefined) return client.destroy();
      const upstream = connect(port, '127.0.0.1');
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        routed.push(port);
        client.pipe(upstream).pipe(client);
      });
      upstream.on('error', () => {
        if (!connected) attempt(i + 1);
        else client.destroy();
      });
      upstream.on('close', () => connected && client.destroy());
      client.on('close', () => upstream.destroy());
    };
    attempt(0);
  });
  return new Promise((resolve) =>
    balancer?.listen(0, '127.0.0.1', () => {
      const address = balancer?.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    }),
  );
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

it('SIGTERM: readyz 503 first, then refuses, finishes the download, moves realtime, exits 0', async () => {
  const [portA, portB] = [await freePort(), await freePort()];
  const [a, b] = await Promise.all([startNode(portA), startNode(portB)]);
  const routed: number[] = [];
  const lbPort = await startBalancer([portA, portB], routed);

  // 24 MB stored on A (an ID3 header makes it audio the tracks bucket accepts).
  const bytes = randomBytes(24 * 1024 * 1024);
  bytes.set([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  const upload = await fetch(`${a.url}/storage/v1/object/tracks/drain/big.mp3`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${keys.serviceRoleKey}`,
      apikey: keys.serviceRoleKey,
      'Content-Type': 'audio/mpeg',
    },
    body: bytes,
  });
  expect(upload.status, await upload.text()).toBe(200);
  const signing = await fetch(`${a.url}/storage/v1/object/sign/tracks/drain/big.mp3`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${keys.serviceRoleKey}`,
      apikey: keys.serviceRoleKey,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ expiresIn: 600 }),
  });
  const { signedURL } = (await signing.json()) as { signedURL: string };

  // A realtime-js client through the balancer (lands on A) in a broadcast channel.
  const listener = new RealtimeClient(`http://127.0.0.1:${lbPort}/realtime/v1`, {
    params: { apikey: keys.anonKey },
    transport: WebSocket as never,
    heartbeatIntervalMs: 15_000,
  });
  realtimeClients.push(listener);
  const received: unknown[] = [];
  let subscribedTimes = 0;
  let onSubscribed: () => void = () => undefined;
  const channel = listener.channel('drain-room');
  channel.on('broadcast', { event: 'ping' }, (m) => received.push(m.payload));
  channel.subscribe((status) => {
    if (status === 'SUBSCRIBED') {
      subscribedTimes++;
      onSubscribed();
    }
  });
  const subscribedAgain = (n: number) =>
    new Promise<void>((resolve) => {
      if (subscribedTimes >= n) return resolve();
      onSubscribed = () => subscribedTimes >= n && resolve();
    });
  await subscribedAgain(1);
  expect(routed).toEqual([portA]);

  // A raw websocket straight to A: its close code is the reconnect hint.
  const raw = new WebSocket(
    `ws://127.0.0.1:${portA}/realtime/v1/websocket?apikey=${keys.anonKey}&vsn=1.0.0`,
  );
  await new Promise((resolve, reject) => raw.once('open', resolve).once('error', reject));
  const rawClosed = new Promise<{ code: number; reason: string }>((resolve) =>
    raw.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );

  // The download: the first bytes arrive, then the reader pauses (the answer cannot end).
  const chunks: Buffer[] = [];
  const response = await new Promise<IncomingMessage>((resolve, reject) =>
    get(`${a.url}/storage/v1${signedURL}`, { agent: false }, resolve).on('error', reject),
  );
  expect(response.statusCode).toBe(200);
  const ended = new Promise<void>((resolve, reject) => {
    response.once('end', resolve);
    response.once('error', reject);
    response.once('aborted', () => reject(new Error('download aborted')));
  });
  await new Promise<void>((resolve) =>
    response.once('data', (c: Buffer) => {
      chunks.push(c);
      response.pause();
      resolve();
    }),
  );
  response.on('data', (c: Buffer) => chunks.push(c));
  response.pause();

  a.child.kill('SIGTERM');

  // 1. Not ready, while still accepting.
  for (;;) {
    const r = await fetch(`${a.url}/readyz`, { headers: { Connection: 'close' } }).catch(
      () => null,
    );
    if (!r) throw new Error('A refused a connection before /readyz answered 503');
    if (r.status === 503) {
      expect(await r.json()).toMatchObject({ ready: false, draining: true });
      break;
    }
    expect(r.status).toBe(200);
    await r.text();
  }
  // 2. New connections refused; the download is not finished.
  while (!(await refused(portA))) await sleep(100);
  expect(response.complete).toBe(false);

  // 3. Realtime: 1012 on A, the listener back on its channel through B, a broadcast on B reaches it.
  expect(await rawClosed).toEqual({ code: 1012, reason: 'service restart' });
  await subscribedAgain(2);
  expect(routed.at(-1)).toBe(portB);
  const sender = new RealtimeClient(`${b.url}/realtime/v1`, {
    params: { apikey: keys.anonKey },
    transport: WebSocket as never,
    heartbeatIntervalMs: 15_000,
  });
  realtimeClients.push(sender);
  const out = sender.channel('drain-room');
  await new Promise<void>((resolve) =>
    out.subscribe((status) => status === 'SUBSCRIBED' && resolve()),
  );
  while (received.length === 0) {
    await out.send({ type: 'broadcast', event: 'ping', payload: { from: 'B' } });
    await sleep(100);
  }
  expect(received[0]).toEqual({ from: 'B' });

  // 4. The download in flight completes, every byte.
  response.resume();
  await ended;
  const got = Buffer.concat(chunks);
  expect(got.length).toBe(bytes.length);
  expect(createHash('sha256').update(got).digest('hex')).toBe(
    createHash('sha256').update(bytes).digest('hex'),
  );

  // 5. A exits 0 having drained, within its bound (it would say "timed out" past 30 s).
  expect(await a.exited).toBe(0);
  expect(a.output()).toMatch(/SIGTERM: draining \(readyz 503; up to 30 s\)/);
  expect(a.output()).toMatch(/SIGTERM: drained in \d+\.\d s, exiting/);
  expect(b.child.exitCode).toBeNull();
}, 180_000);
