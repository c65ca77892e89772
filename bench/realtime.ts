/**
 * `npm run bench -- realtime`: the embedded Realtime (server/realtime) in a child process, on
 * PGlite and on PostgreSQL 15. Figures only:
 * - change-to-client latency: a followed user's listens inserted at REALTIME_BENCH_RATE (100) per
 *   second for 10 s, each delivered (after its RLS check) to REALTIME_BENCH_READERS (10) followers
 *   on @supabase/realtime-js; from the insert's commit to the client's callback, p50 / p95 / max,
 *   after a 2 s warm-up at the same rate; with the machine's load average before → after;
 * - idle connections: REALTIME_BENCH_CONNECTIONS (10,000) sockets, each joined to a channel with
 *   one postgres_changes subscription, held at once; the server's memory before and after; then
 *   the latency again with all of them open.
 * Supabase's published figures for comparison (supabase.com/docs/guides/realtime/benchmarks):
 * postgres_changes throughput is bound by the RLS check per subscriber and change.
 */
import { RealtimeClient } from '@supabase/realtime-js';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startChildServer } from './child-server';
import { Cleanup } from './cleanup';
import { startPostgres } from './postgres';

const RATE = Number(process.env.REALTIME_BENCH_RATE ?? 100);
const SECONDS = 10;
const CONNECTIONS = Number(process.env.REALTIME_BENCH_CONNECTIONS ?? 10_000);
const SERVER_SCRIPT = fileURLToPath(new URL('./realtime-server.ts', import.meta.url));

interface Server {
  url: string;
  anonKey: string;
  control: string;
  writer: string;
  readers: { id: string; token: string }[];
}

interface Stats {
  memory: { rss: number; heapUsed: number };
  realtime: { connections: number; channels: number; subscriptions: number };
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function readers(server: Server, cleanup: Cleanup) {
  const received = new Map<string, number[]>();
  for (const reader of server.readers) {
    const client = new RealtimeClient(`${server.url}/realtime/v1`, {
      params: { apikey: server.anonKey },
      transport: WebSocket as never,
    });
    cleanup.add('disconnect a reader', () => client.disconnect().then(() => undefined));
    await client.setAuth(reader.token);
    await new Promise<void>((resolve, reject) => {
      client
        .channel(`friends-${reader.id}`)
        .on(
          'postgres_changes',
          {
            event: 'INSERT',
            schema: 'public',
            table: 'listening_history',
            filter: `user_id=eq.${server.writer}`,
          },
          (payload) => {
            const id = (payload.new as { id: string }).id;
            const list = received.get(id) ?? [];
            list.push(Date.now());
            received.set(id, list);
          },
        )
        .subscribe((status, error) => {
          if (status === 'SUBSCRIBED') resolve();
          else if (status !== 'CLOSED') reject(error ?? new Error(status));
        });
    });
  }
  return received;
}

async function latency(
  server: Server,
  received: Map<string, number[]>,
  label: string,
  seconds = SECONDS,
) {
  received.clear();
  const load = loadavg()[0] as number;
  const res = await fetch(`${server.control}/burst?rate=${RATE}&seconds=${seconds}`, {
    method: 'POST',
  });
  const { rows, ms } = (await res.json()) as {
    rows: { id: string; committedAt: number }[];
    ms: number;
  };
  await new Promise((resolve) => setTimeout(resolve, 500));
  const latencies: number[] = [];
  for (const row of rows)
    for (const at of received.get(row.id) ?? []) latencies.push(at - row.committedAt);
  latencies.sort((a, b) => a - b);
  const expected = rows.length * server.readers.length;
  console.log(
    `    ${label}: ${rows.length} listens in ${(ms / 1000).toFixed(1)} s (${(rows.length / (ms / 1000)).toFixed(0)}/s) → ${latencies.length}/${expected} deliveries; latency p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms, max ${latencies[latencies.length - 1] ?? '-'} ms (load average ${load.toFixed(1)} → ${(loadavg()[0] as number).toFixed(1)})`,
  );
}

async function stats(server: Server): Promise<Stats> {
  return (await (await fetch(`${server.control}/stats`)).json()) as Stats;
}

async function idleConnections(server: Server, cleanup: Cleanup): Promise<number> {
  const sockets: WebSocket[] = [];
  cleanup.add('close the idle sockets', () => {
    for (const s of sockets) s.terminate();
  });
  const wsUrl = `${server.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${server.anonKey}&vsn=2.0.0`;
  let failed = 0;
  const open = (i: number) =>
    new Promise<void>((resolve) => {
      const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
      ws.once('open', () => {
        ws.send(
          JSON.stringify([
            '1',
            '1',
            `realtime:idle-${i}`,
            'phx_join',
            {
              config: {
                postgres_changes: [
                  {
                    event: 'UPDATE',
                    schema: 'public',
                    table: 'tracks',
                    filter: `title=eq.idle-${i}`,
                  },
                ],
              },
            },
          ]),
        );
        ws.once('message', () => {
          sockets.push(ws);
          resolve();
        });
      });
      ws.once('error', () => {
        failed++;
        resolve();
      });
    });
  for (let i = 0; i < CONNECTIONS; i += 250) {
    await Promise.all(
      Array.from({ length: Math.min(250, CONNECTIONS - i) }, (_, j) => open(i + j)),
    );
    if (failed > 0) break;
  }
  if (failed > 0) console.log(`    ${failed} sockets failed to open (stopped there)`);
  return sockets.length;
}

async function onBackend(label: string, server: Server, cleanup: Cleanup) {
  console.log(`\n  ${label}`);
  const received = await readers(server, cleanup);
  // Not measured: the first seconds of a fresh process (JIT, the first plans).
  await latency(server, received, 'warm-up (not a figure)', 2);
  await latency(server, received, `${server.readers.length} followers, no other sockets`);
  const before = await stats(server);
  const started = Date.now();
  const held = await idleConnections(server, cleanup);
  const after = await stats(server);
  const per = (after.memory.rss - before.memory.rss) / Math.max(1, held);
  console.log(
    `    idle: ${held} sockets opened and joined in ${((Date.now() - started) / 1000).toFixed(1)} s (server: ${after.realtime.connections} connections, ${after.realtime.subscriptions} subscriptions); server RSS ${mib(before.memory.rss)} → ${mib(after.memory.rss)} (${(per / 1024).toFixed(1)} KiB per socket), heap ${mib(after.memory.heapUsed)}`,
  );
  await latency(server, received, `with ${held} idle sockets open`);
}

export async function benchRealtime(): Promise<void> {
  console.log(
    `\nRealtime (issue 19): server in a child process; latency at ${RATE} changes/s, ${CONNECTIONS} idle sockets`,
  );
  const cleanup = new Cleanup();
  const onSignal = () => void cleanup.run().then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  try {
    {
      const run = new Cleanup();
      try {
        const server = await startChildServer<Server>(
          SERVER_SCRIPT,
          {},
          run,
          'realtime bench server',
        );
        await onBackend('PGlite, in memory', server, run);
      } finally {
        await run.run();
      }
    }
    const pg = await startPostgres(cleanup, 'realtime');
    if (typeof pg === 'string') console.log(`\n  PostgreSQL: skipped (${pg})`);
    else {
      const run = new Cleanup();
      try {
        const server = await startChildServer<Server>(
          SERVER_SCRIPT,
          { TEST_DATABASE_URL: pg.url },
          run,
          'realtime bench server',
        );
        await onBackend(`PostgreSQL 15 (${pg.how})`, server, run);
      } finally {
        await run.run();
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    await cleanup.run();
  }
}
