/**
 * The server of `npm run bench -- realtime`, in its own process: Realtime (server/realtime) on a
 * migrated database (in-memory PGlite, or TEST_DATABASE_URL's PostgreSQL). Prints one JSON line
 * ({ url, anonKey, control, writer, readers: [{id, token}], trackId }). The control server:
 * POST /burst?rate=&seconds= inserts the writer's listens at that rate and answers each row's
 * commit time; GET /stats answers memory and Realtime's counters.
 */
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTrack, createUser } from '../server/db/test-factories';
import { openTestDatabase } from '../server/db/test-database';
import { loadKeys, userToken } from '../server/keys/keys';
import { startRealtime } from '../server/realtime';

const READERS = Number(process.env.REALTIME_BENCH_READERS ?? 10);

const test = await openTestDatabase();
const keys = loadKeys({ JWT_SECRET: 'realtime-bench-secret-that-is-32-characters' }, () => {});
const realtime = await startRealtime({
  db: test.db,
  jwtSecret: keys.jwtSecret,
  limits: { maxConnections: 50_000, heartbeatTimeoutMs: 600_000 },
});
const writer = await createUser(test.db, { name: 'Bench Writer' });
const track = await createTrack(test.db, writer);
const readers: { id: string; token: string }[] = [];
for (let i = 0; i < READERS; i++) {
  const reader = await createUser(test.db);
  await test.db.query(`insert into public.followers (follower_id, following_id) values ($1, $2)`, [
    reader.id,
    writer.id,
  ]);
  readers.push({ id: reader.id, token: userToken(reader.id, keys.jwtSecret) });
}

const ws = createHttpServer((_req, res) => {
  res.writeHead(404);
  res.end();
});
realtime.attach(ws as never);

const reply = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function burst(rate: number, seconds: number) {
  const rows: { id: string; committedAt: number }[] = [];
  const total = rate * seconds;
  const start = Date.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      test.db
        .query<{ id: string }>(
          `insert into public.listening_history (user_id, track_id) values ($1, $2) returning id`,
          [writer.id, track.id],
        )
        .then(({ rows: [row] }) => {
          if (row) rows.push({ id: row.id, committedAt: Date.now() });
        }),
    );
  }
  await Promise.all(pending);
  await realtime.changes.drain();
  return { rows, ms: Date.now() - start };
}

const control = createHttpServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/burst') {
    burst(
      Number(url.searchParams.get('rate') ?? 100),
      Number(url.searchParams.get('seconds') ?? 10),
    ).then(
      (result) => reply(res, result),
      (error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      },
    );
    return;
  }
  if (url.pathname === '/stats') {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    reply(res, { memory: process.memoryUsage(), realtime: realtime.server.stats() });
    return;
  }
  res.writeHead(404);
  res.end();
});

await new Promise<void>((resolve) => ws.listen(0, '127.0.0.1', resolve));
control.listen(0, '127.0.0.1', () => {
  process.stdout.write(
    `${JSON.stringify({
      url: `http://127.0.0.1:${(ws.address() as AddressInfo).port}`,
      anonKey: keys.anonKey,
      control: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
      writer: writer.id,
      readers,
    })}\n`,
  );
});

const shutdown = async () => {
  control.close();
  await realtime.close();
  ws.close();
  await test.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
process.stdin.on('end', () => void shutdown());
process.stdin.resume();
