/**
 * `npm run bench -- ops`: what the operations layer (server/ops: request id, one latency
 * observation per request in prom-client, one JSON log line per request with pino) costs the
 * REST fast path. One server, its front switched off and on in alternating rounds, so the
 * machine's load of the moment weighs on both alike; `wrk` (or autocannon) in another process.
 * BENCH_REST_DB=postgres runs it on a throwaway PostgreSQL 15 cluster, else PGlite in memory.
 * The log lines go to /dev/null through the server's own batched destination, as to a pipe.
 */
import { loadavg } from 'node:os';
import { openSync } from 'node:fs';
import type { Database } from '../server/db/database';
import { openTestDatabase } from '../server/db/test-database';
import { loadKeys } from '../server/keys/keys';
import { createHealth } from '../server/ops/health';
import { createOpsFront } from '../server/ops/http';
import { batchedDestination, createLogger } from '../server/ops/log';
import { createMetrics } from '../server/ops/metrics';
import { startRestServer } from '../server/rest/serve';
import type { NodeFastPath } from '../server/rest/node';
import { createMemoryObjectStore } from '../server/storage/object-store';
import { Cleanup } from './cleanup';
import { startPostgres } from './postgres';
import { startLoadGenerator, type LoadResult } from './rest-load';

const ROUNDS = Math.max(3, Number(process.env.BENCH_OPS_ROUNDS) || 12);
const SECONDS = Math.max(1, Number(process.env.BENCH_OPS_SECONDS) || 3);
const CONNECTIONS = 10;

/**
 * The operations front as `npm start` puts it before the REST fast path: with `json`, a log line
 * per request to /dev/null; with `text`, request lines only for 5xx (none here).
 */
export function opsFront(db: Database, format: 'json' | 'text' = 'json'): NodeFastPath {
  return createOpsFront({
    logger: createLogger(format, batchedDestination(openSync('/dev/null', 'w'))),
    metrics: createMetrics({ db }),
    health: createHealth({ db, store: createMemoryObjectStore() }),
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

export async function benchOps(): Promise<void> {
  console.log(
    '\nOperations layer on the REST fast path (server/ops: request id, metrics, JSON log)',
  );
  const cleanup = new Cleanup();
  try {
    let env: NodeJS.ProcessEnv = {};
    if (process.env.BENCH_REST_DB === 'postgres') {
      const pg = await startPostgres(cleanup, 'ops');
      if (typeof pg === 'string') {
        console.log(`  PostgreSQL: ${pg}: skipped`);
        return;
      }
      env = { TEST_DATABASE_URL: pg.url };
    }
    const test = await openTestDatabase(env);
    cleanup.add('close database', () => test.close());
    const keys = loadKeys(
      { JWT_SECRET: 'soundloft-bench-secret-at-least-32-characters' },
      () => undefined,
    );
    const fronts = {
      'metrics, text log': opsFront(test.db, 'text'),
      'metrics, JSON log': opsFront(test.db),
    };
    type Mode = 'off' | keyof typeof fronts;
    const modes: Mode[] = ['off', 'metrics, text log', 'metrics, JSON log'];
    let mode: Mode = 'off';
    const front: NodeFastPath = (req, res) => mode !== 'off' && fronts[mode](req, res);
    const server = await startRestServer({ db: test.db, keys, hostname: '127.0.0.1', front });
    cleanup.add('close server', () => server.close());
    const load = await startLoadGenerator();
    cleanup.add('stop load', () => load.close());
    const spec = (prefix: string, seconds: number) => ({
      origin: server.url,
      method: 'GET' as const,
      // A real read through the fast path: three rows of a migrated table, as anon.
      path: '/rest/v1/plans?select=id,price_eur&order=price_eur.asc',
      headers: { apikey: keys.anonKey },
      tokens: [keys.anonKey],
      variants: [{ token: 0, vars: {} }],
      prefix,
      connections: CONNECTIONS,
      seconds,
    });
    const before = loadavg();
    await load.run(spec('warm', 1));
    const rounds = new Map<Mode, { r: LoadResult; cpu: number }[]>(modes.map((m) => [m, []]));
    for (let i = 0; i < ROUNDS; i++) {
      mode = modes[i % modes.length] ?? 'off';
      const c0 = process.cpuUsage();
      const r = await load.run(spec(`r${i}`, SECONDS));
      const c = process.cpuUsage(c0);
      rounds.get(mode)?.push({ r, cpu: (c.user + c.system) / Math.max(1, r.ok + r.failed) });
    }
    const after = loadavg();
    console.log(
      `  ${test.db.kind === 'postgres' ? 'PostgreSQL 15' : 'PGlite in memory'}, ${load.name}, ` +
        `${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s, the modes in turn; ` +
        `load ${before.map((x) => x.toFixed(1)).join(' ')} → ${after.map((x) => x.toFixed(1)).join(' ')}`,
    );
    console.log(
      '  ops front          req/s (rounds)                      p50 ms  p99 ms  server CPU µs/req (min)',
    );
    // The least disturbed round: other processes on the cores only ever add to a round's cost.
    const cpuOff = Math.min(...(rounds.get('off') ?? []).map((x) => x.cpu));
    for (const m of modes) {
      const rs = rounds.get(m) ?? [];
      const cpu = Math.min(...rs.map((x) => x.cpu));
      console.log(
        `  ${m.padEnd(18)} ${median(rs.map((x) => x.r.rps))
          .toFixed(0)
          .padStart(6)} (${rs.map((x) => x.r.rps.toFixed(0)).join(', ')})`.padEnd(63) +
          `${median(rs.map((x) => x.r.p50))
            .toFixed(2)
            .padStart(6)}  ${Math.max(...rs.map((x) => x.r.p99))
            .toFixed(2)
            .padStart(6)}  ${cpu.toFixed(0).padStart(6)}` +
          (m === 'off'
            ? ''
            : `  (${cpu >= cpuOff ? '+' : ''}${(cpu - cpuOff).toFixed(0)} µs, ${(((cpu - cpuOff) / cpuOff) * 100).toFixed(1)} %)`),
      );
      if (rs.some((x) => x.r.failed > 0))
        console.log(`           failed: ${rs.map((x) => x.r.failed).join(', ')}`);
    }
    console.log(
      '  server CPU µs/req: this process per request answered, in the least disturbed round; p50: median',
    );
    console.log(
      '  of the rounds, p99: the worst round. The load generator runs in another process.',
    );
  } finally {
    await cleanup.run();
  }
}
