/**
 * REST gateway figures (issue 3): requests per second and latency of five `/rest/v1` requests on
 * PGlite (in memory) and PostgreSQL 15, and the same transactions run directly on the same
 * database (gateway overhead = direct tx/s ÷ gateway req/s).
 *
 * The server runs in this process (startRestServer on 127.0.0.1); autocannon runs in a child
 * process (bench/load-worker.ts), so load and server never share an event loop. The direct loop
 * replays the exact database calls the gateway made for a probe request (recorded from the
 * Database it was given): BEGIN; set_config(role, claims, method, path, headers); the
 * statement; COMMIT, as one pipelined batch (reads, RPC) or a transaction with that prelude
 * (writes), through the same server/db pool, with the same concurrency as the load. What is
 * left between the two figures is HTTP and the gateway's own work.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { requestContextStatement, type JwtClaims, type RequestInfo } from '../server/db/as-role';
import type {
  Database,
  QueryResult,
  Queryable,
  Statement,
  TransactionOptions,
} from '../server/db/database';
import { openTestDatabase, type TestDatabase } from '../server/db/test-database';
import { loadKeys, type Keys } from '../server/keys/keys';
import { startRestServer } from '../server/rest/serve';
import { opsFront } from './ops';
import { Cleanup } from './cleanup';
import { postgresCpuMicros, startPostgres } from './postgres';
import { gatewayBreakdown, type Breakdown, type ProbeAnswer } from './rest-breakdown';
import { render, startLoadGenerator, type LoadResult, type LoadWorker } from './rest-load';
import {
  FOLLOWS_PER_USER,
  LIKES_PER_USER,
  USERS,
  scenarios,
  seedCatalogue,
  type Scenario,
} from './rest-seed';

const CONNECTIONS = 10;
const WARMUP_SECONDS = 1;
/** BENCH_REST_SECONDS overrides (1..30). */
const MEASURE_SECONDS = Math.min(30, Math.max(1, Number(process.env.BENCH_REST_SECONDS) || 4.5));
const DIRECT_SECONDS = 4.5;
/** Gateway and direct alternate in this many rounds, each a third of the time. */
const ROUNDS = 3;
/** Upper bound on direct transactions per request kind, whatever the speed. */
const DIRECT_MAX = 100_000;
const ANCHOR = 'PostgREST on a 2-vCPU machine: about 2,000 single-row GETs/s';
const PROBE_N = 'zprobez';

interface Recorded {
  sql: string;
  params: unknown[];
}

/** What one request ran: a batch (one pipelined round trip) or a transaction with a prelude. */
interface RecordedRequest {
  kind: 'batch' | 'transaction';
  /** batch: every statement; transaction: the prelude (the request context). */
  prelude: Recorded[];
  /** transaction: the statements of its callback, in order; batch: none. */
  statements: Recorded[];
}

const recorded = (s: Statement): Recorded => ({ sql: s.sql, params: s.params ?? [] });

/** Passes everything through; while `record` is on, logs what each request runs. */
function recording(db: Database) {
  let log: RecordedRequest[] | undefined;
  const wrapped: Database = {
    kind: db.kind,
    query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      return db.query<T>(sql, params);
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T> {
      const sink = log;
      if (!sink) return db.transaction(fn, options);
      const statements: Recorded[] = [];
      sink.push({
        kind: 'transaction',
        prelude: (options?.prelude ?? []).map(recorded),
        statements,
      });
      return db.transaction(
        (tx) =>
          fn({
            query<R>(sql: string, params: unknown[] = []) {
              statements.push({ sql, params });
              return tx.query<R>(sql, params);
            },
          }),
        options,
      );
    },
    batch(statements: Statement[]): Promise<QueryResult[]> {
      log?.push({ kind: 'batch', prelude: statements.map(recorded), statements: [] });
      return db.batch(statements);
    },
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
    listen: (channel, onNotify, onReconnect) => db.listen(channel, onNotify, onReconnect),
  };
  return {
    db: wrapped,
    async record(fn: () => Promise<void>): Promise<RecordedRequest[]> {
      const sink: RecordedRequest[] = [];
      log = sink;
      try {
        await fn();
      } finally {
        log = undefined;
      }
      return sink;
    },
  };
}

/** Replaces every occurrence of each `from` by its `to` in strings (recursively in arrays). */
function substitute(value: unknown, pairs: [string, string][]): unknown {
  if (typeof value === 'string') {
    let s = value;
    for (const [from, to] of pairs) if (from !== to) s = s.split(from).join(to);
    return s;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, pairs));
  return value;
}

function claimsOf(token: string): JwtClaims {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as JwtClaims;
}

interface DirectResult {
  /** Committed transactions per second. */
  tps: number;
  p50: number;
  p99: number;
  count: number;
  failed: number;
  firstError?: string;
}

/** One run of `concurrency` loops calling `once(i)`: its latencies (ms) and length (s). */
interface DirectRound {
  latencies: number[];
  seconds: number;
  failed: number;
  firstError?: string;
}

/**
 * `concurrency` loops calling `once(i)` until the deadline or DIRECT_MAX calls; `counter` keeps
 * i unique across rounds.
 */
async function directLoop(
  seconds: number,
  concurrency: number,
  counter: { next: number },
  once: (i: number) => Promise<unknown>,
): Promise<DirectRound> {
  const latencies: number[] = [];
  const last = counter.next + DIRECT_MAX;
  let failed = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline && counter.next < last) {
      const i = counter.next++;
      const t0 = performance.now();
      try {
        await once(i);
        latencies.push(performance.now() - t0);
      } catch (error) {
        failed++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return {
    latencies,
    seconds: (performance.now() - started) / 1000,
    failed,
    ...(firstError ? { firstError } : {}),
  };
}

function mergeDirect(rounds: DirectRound[]): DirectResult {
  const latencies = rounds.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const firstError = rounds.find((r) => r.firstError)?.firstError;
  return {
    tps: seconds > 0 ? latencies.length / seconds : 0,
    p50: at(0.5),
    p99: at(0.99),
    count: latencies.length,
    failed: rounds.reduce((sum, r) => sum + r.failed, 0),
    ...(firstError ? { firstError } : {}),
  };
}

/** The gateway's rounds as one run: req/s over all, median p50, worst p99. */
function mergeGateway(rounds: LoadResult[]): LoadResult {
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
  const ok = rounds.reduce((sum, r) => sum + r.ok, 0);
  const statuses: Record<string, number> = {};
  for (const r of rounds)
    for (const [k, n] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
  return {
    rps: seconds > 0 ? ok / seconds : 0,
    p50: median(rounds.map((r) => r.p50)),
    p99: Math.max(...rounds.map((r) => r.p99)),
    ok,
    failed: rounds.reduce((sum, r) => sum + r.failed, 0),
    seconds,
    statuses,
    cpuMicros: rounds.reduce((sum, r) => sum + r.cpuMicros, 0),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

interface Row {
  name: string;
  probe: string;
  /** How the gateway ran it: 'batch' (one pipelined round trip) or 'tx' (transaction). */
  shape: string;
  gateway: LoadResult;
  direct: DirectResult;
  /** Gateway req/s ÷ direct tx/s of each round (gateway then direct, back to back). */
  ratios: number[];
  /**
   * CPU time of this process (the server, or the direct loops) per answered request and per
   * direct transaction, µs, over all rounds: what the gateway costs on the CPU, far less moved
   * by other processes than req/s on a shared machine (the load generator is another process).
   */
  cpuGateway: number;
  cpuDirect: number;
  /** The load generator's process, CPU µs per answered request (the direct side has none). */
  cpuLoad: number;
  /** PostgreSQL's processes, CPU µs per request and per direct transaction (null: PGlite). */
  pgGateway: number | null;
  pgDirect: number | null;
  /** The first request kind only: where the gateway's CPU per request goes (rest-breakdown.ts). */
  breakdown?: Breakdown;
}

interface DatabaseReport {
  label: string;
  version: string;
  seed: string;
  loadBefore: number[];
  loadAfter: number[];
  /** The load generator: 'wrk' or 'autocannon'. */
  generator: string;
  rows: Row[];
}

async function benchDatabase(
  label: string,
  env: NodeJS.ProcessEnv,
  worker: LoadWorker,
  cleanup: Cleanup,
  pgPort?: number,
): Promise<DatabaseReport> {
  const keys = loadKeys(
    { JWT_SECRET: 'soundloft-bench-secret-at-least-32-characters' },
    () => undefined,
  );
  const opened = performance.now();
  const test: TestDatabase = await openTestDatabase(env);
  cleanup.add(`close ${label} database`, () => test.close());
  const openMs = performance.now() - opened;
  const { rows: versionRows } = await test.db.query<{ v: string }>(
    `select current_setting('server_version') as v`,
  );
  const catalogue = await seedCatalogue(test.db, keys.jwtSecret);
  const rec = recording(test.db);
  // BENCH_REST_OPS=1: with npm start's operations front (request ids, metrics, JSON log lines).
  const front = process.env.BENCH_REST_OPS === '1' ? opsFront(rec.db) : undefined;
  const server = await startRestServer({ db: rec.db, keys, hostname: '127.0.0.1', front });
  cleanup.add(`close ${label} REST server`, () => server.close());
  const report: DatabaseReport = {
    label,
    version: versionRows[0]?.v ?? '?',
    seed:
      `migrated in ${(openMs / 1000).toFixed(1)} s; seeded in ${(catalogue.ms / 1000).toFixed(1)} s: ` +
      `${USERS} users, ${catalogue.tracks.length} tracks, ${USERS * FOLLOWS_PER_USER} follows, ` +
      `${USERS * LIKES_PER_USER} likes, ${USERS * 2} playlists, ${catalogue.historyRows} history rows`,
    loadBefore: loadavg(),
    loadAfter: [],
    generator: worker.name,
    rows: [],
  };
  for (const [k, s] of scenarios(catalogue, keys.anonKey).entries()) {
    report.rows.push(
      await benchScenario(s, `s${k}`, server.url, catalogue.tokens, rec, worker, keys, pgPort),
    );
  }
  report.loadAfter = loadavg();
  return report;
}

async function benchScenario(
  s: Scenario,
  tag: string,
  origin: string,
  tokens: string[],
  rec: ReturnType<typeof recording>,
  worker: LoadWorker,
  keys: Pick<Keys, 'jwtSecret'>,
  pgPort?: number,
): Promise<Row> {
  const first = s.variants[0];
  const token0 = first ? tokens[first.token] : undefined;
  if (!first || !token0) throw new Error(`${s.name}: no variants`);
  // Probe: one request through the gateway, recording the transaction it runs.
  let probe = '';
  let probeBody = '';
  let answer: ProbeAnswer | undefined;
  const transactions = await rec.record(async () => {
    const res = await fetch(origin + render(s.path, first.vars, PROBE_N), {
      method: s.method,
      headers: { ...s.headers, Authorization: `Bearer ${token0}` },
      ...(s.body !== undefined ? { body: render(s.body, first.vars, PROBE_N) } : {}),
    });
    probeBody = await res.text();
    probe = s.check(res.status, probeBody);
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => {
      if (
        key !== 'content-length' &&
        key !== 'date' &&
        key !== 'connection' &&
        key !== 'keep-alive'
      )
        headers[key] = value;
    });
    answer = { status: res.status, headers, body: probeBody };
  });
  const tx = transactions[0];
  const context = tx?.prelude[0];
  if (transactions.length !== 1 || !tx || !context || !context.sql.includes("set_config('role'"))
    throw new Error(
      `${s.name}: expected one request starting with set_config, got ${JSON.stringify(transactions).slice(0, 300)}`,
    );
  const [, , method, path, headersJson] = context.params as string[];
  const request: RequestInfo = {
    method: method ?? 'GET',
    path: path ?? '/',
    headers: JSON.parse(headersJson ?? '{}') as Record<string, string>,
  };
  const morePrelude = tx.prelude.slice(1);

  const base = {
    origin,
    method: s.method,
    path: s.path,
    headers: s.headers,
    tokens,
    variants: s.variants,
  };
  const spec = (prefix: string, seconds: number) => ({
    ...base,
    ...(s.body !== undefined ? { body: s.body } : {}),
    prefix,
    connections: CONNECTIONS,
    seconds,
  });
  await worker.run(spec(`${tag}w`, WARMUP_SECONDS));

  // Direct: the same transactions, cycled over the same variants with fresh counters.
  const claims = tokens.map(claimsOf);
  const counter = { next: 0 };
  const once = async (i: number) => {
    const v = s.variants[i % s.variants.length] ?? first;
    const token = tokens[v.token] ?? token0;
    const pairs: [string, string][] = [
      ...Object.entries(first.vars).map(([k, from]): [string, string] => [from, v.vars[k] ?? from]),
      [PROBE_N, `${tag}d${i}`],
      [token0, token],
    ];
    const headers = Object.fromEntries(
      Object.entries(request.headers ?? {}).map(([k, h]) => [k, substitute(h, pairs) as string]),
    );
    // The same calls the gateway made (same pipelining and prepared statements), only the
    // HTTP server and the gateway's own work are left out.
    const statements = (list: Recorded[]): Statement[] =>
      list.map((st) => ({ sql: st.sql, params: substitute(st.params, pairs) as unknown[] }));
    const prelude = [
      requestContextStatement(claims[v.token] ?? null, { ...request, headers }),
      ...statements(morePrelude),
    ];
    let result: QueryResult | undefined;
    if (tx.kind === 'batch') result = (await rec.db.batch(prelude)).at(-1);
    else
      result = await rec.db.transaction(
        async (q) => {
          let last: QueryResult | undefined;
          for (const st of statements(tx.statements)) last = await q.query(st.sql, st.params);
          return last;
        },
        { prelude },
      );
    // The first direct call repeats the probe (same variant): same answer for reads and RPC.
    const body = result?.rows[0]?.body;
    if (i === 0 && s.method === 'GET' && body !== probeBody)
      throw new Error(`direct answer differs from the gateway's: ${String(body).slice(0, 100)}`);
    if (i === 0 && s.path.includes('/rpc/') && body !== probeBody)
      throw new Error(`direct RPC answered ${String(body)}, the gateway ${probeBody}`);
    return result;
  };
  // Gateway and direct in alternating rounds: on a shared machine the load of the moment
  // weighs on both alike, and the ratio of each round is taken back to back.
  const gatewayRounds: LoadResult[] = [];
  const directRounds: DirectRound[] = [];
  const cpu = { gateway: 0, direct: 0, pgGateway: 0, pgDirect: 0 };
  const cpuOf = (u: NodeJS.CpuUsage) => u.user + u.system;
  const pgCpu = () => (pgPort === undefined ? null : postgresCpuMicros(pgPort));
  const pgSince = (from: number | null) => {
    const now = pgCpu();
    return from === null || now === null ? Number.NaN : now - from;
  };
  // BENCH_REST_PROFILE=<dir>: a CPU profile of the server process during each gateway round
  // of the first request kind (<dir>/<database>-s0-<round>.cpuprofile; the profiler's own cost
  // makes those rounds slower).
  const profileDir = process.env.BENCH_REST_PROFILE;
  const prof = profileDir && tag === 's0' ? new Session() : undefined;
  if (prof) {
    prof.connect();
    await prof.post('Profiler.enable');
    await prof.post('Profiler.setSamplingInterval', { interval: 100 });
  }
  for (let round = 0; round < ROUNDS; round++) {
    let c0 = process.cpuUsage();
    let pg0 = pgCpu();
    if (prof) await prof.post('Profiler.start');
    gatewayRounds.push(await worker.run(spec(`${tag}g${round}`, MEASURE_SECONDS / ROUNDS)));
    if (prof) {
      const { profile } = await prof.post('Profiler.stop');
      writeFileSync(
        `${profileDir}/${pgPort ? 'postgres' : 'pglite'}-${tag}-${round}.cpuprofile`,
        JSON.stringify(profile),
      );
    }
    cpu.gateway += cpuOf(process.cpuUsage(c0));
    cpu.pgGateway += pgSince(pg0);
    c0 = process.cpuUsage();
    pg0 = pgCpu();
    directRounds.push(await directLoop(DIRECT_SECONDS / ROUNDS, CONNECTIONS, counter, once));
    cpu.direct += cpuOf(process.cpuUsage(c0));
    cpu.pgDirect += pgSince(pg0);
  }
  prof?.disconnect();
  // The first request kind (the single-row GET): the HTTP floor and the REST core alone.
  const probeResult = tag === 's0' && s.method === 'GET' && answer ? await once(0) : undefined;
  const breakdown =
    probeResult && answer
      ? await gatewayBreakdown({
          db: rec.db,
          keys,
          answer,
          result: probeResult,
          worker,
          spec: spec(`${tag}b`, MEASURE_SECONDS / ROUNDS),
        })
      : undefined;
  const ratios = gatewayRounds.map((g, k) => {
    const d = directRounds[k];
    const tps = d && d.seconds > 0 ? d.latencies.length / d.seconds : 0;
    return tps > 0 ? g.rps / tps : 0;
  });
  const gateway = mergeGateway(gatewayRounds);
  const direct = mergeDirect(directRounds);
  return {
    name: s.name,
    probe,
    shape: tx.kind === 'batch' ? 'batch' : 'tx',
    gateway,
    direct,
    ratios,
    cpuGateway: gateway.ok > 0 ? cpu.gateway / gateway.ok : 0,
    cpuDirect: direct.count > 0 ? cpu.direct / direct.count : 0,
    cpuLoad:
      gateway.ok > 0 ? gatewayRounds.reduce((sum, r) => sum + r.cpuMicros, 0) / gateway.ok : 0,
    pgGateway: pgPort === undefined || gateway.ok === 0 ? null : cpu.pgGateway / gateway.ok,
    pgDirect: pgPort === undefined || direct.count === 0 ? null : cpu.pgDirect / direct.count,
    ...(breakdown ? { breakdown } : {}),
  };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function printReport(r: DatabaseReport) {
  const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  console.log(`\n${r.label} (server ${r.version}): ${r.seed}`);
  console.log(
    `  ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up, then ${ROUNDS} rounds of ${fmt(MEASURE_SECONDS / ROUNDS, 1)} s gateway (${r.generator} in a child process) + ` +
      `${fmt(DIRECT_SECONDS / ROUNDS, 1)} s direct (${CONNECTIONS} concurrent loops); load average ${la(r.loadBefore)} before, ${la(r.loadAfter)} after`,
  );
  const head = [
    'request',
    'req/s',
    'p50 ms',
    'p99 ms',
    'direct tx/s',
    'direct p50',
    'of direct',
    'overhead',
    'CPU µs',
    'load gen',
    'PG CPU µs',
    'db',
    'failed',
    'probe',
  ];
  const lines = r.rows.map((row) => [
    row.name,
    fmt(row.gateway.rps),
    fmt(row.gateway.p50),
    fmt(row.gateway.p99),
    fmt(row.direct.tps),
    `${fmt(row.direct.p50, 1)} ms`,
    `${fmt(100 * median(row.ratios))} % (${row.ratios.map((r) => fmt(100 * r)).join('/')})`,
    row.gateway.rps > 0 ? `${fmt(row.direct.tps / row.gateway.rps, 2)}×` : '–',
    `${fmt(row.cpuGateway)}/${fmt(row.cpuDirect)}`,
    fmt(row.cpuLoad),
    row.pgGateway === null || row.pgDirect === null
      ? 'in CPU µs'
      : `${fmt(row.pgGateway)}/${fmt(row.pgDirect)}`,
    row.shape,
    `${fmt(row.gateway.failed)}/${fmt(row.direct.failed)}`,
    row.probe,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const line = (cells: string[]) =>
    '  ' +
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ');
  console.log(line(head));
  for (const l of lines) console.log(line(l));
  for (const row of r.rows) {
    const b = row.breakdown;
    if (b)
      console.log(
        `  ${row.name}, this process's CPU µs per request: gateway ${fmt(row.cpuGateway)}, direct ${fmt(row.cpuDirect)}; ` +
          `node:http alone sending the same answer ${fmt(b.httpFloor)} (${fmt(b.httpFloorRps)} req/s), ` +
          `the REST core alone (in process, database answered at once) ${fmt(b.core)}`,
      );
    if (row.gateway.failed > 0)
      console.log(`  ! ${row.name}: HTTP statuses ${JSON.stringify(row.gateway.statuses)}`);
    if (row.direct.failed > 0)
      console.log(
        `  ! ${row.name}: direct: ${row.direct.failed} failed, first: ${row.direct.firstError}`,
      );
  }
}

/** `npm run bench -- rest`. Prints as it goes; every server, cluster and child is stopped. */
export async function benchRest(): Promise<void> {
  console.log(`\nREST /rest/v1 gateway (anchor: ${ANCHOR})`);
  // outer: the load worker and the cluster; inner: one database and its server.
  const outer = new Cleanup();
  const inner = new Cleanup();
  let stopLoad = () => {};
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: cleaning up`);
    stopLoad(); // first: open load connections would hold the server's close
    void inner
      .run()
      .then(() => outer.run())
      .finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const started = performance.now();
  try {
    const load = await startLoadGenerator();
    stopLoad = () => load.close();
    outer.add('stop load worker', stopLoad);
    // BENCH_REST_DB=postgres or pglite: one database only.
    const only = process.env.BENCH_REST_DB;
    if (only !== 'postgres') {
      try {
        printReport(await benchDatabase('PGlite, in memory', {}, load, inner));
      } finally {
        await inner.run();
      }
    }
    const pg = only === 'pglite' ? 'BENCH_REST_DB=pglite' : await startPostgres(outer, 'rest');
    if (typeof pg === 'string') console.log(`  PostgreSQL: ${pg}: skipped`);
    else {
      console.log(`\n  PostgreSQL: ${pg.how}`);
      printReport(
        await benchDatabase(
          'PostgreSQL',
          { TEST_DATABASE_URL: pg.url },
          load,
          inner,
          Number(new URL(pg.url).port),
        ),
      );
    }
  } finally {
    await inner.run();
    await outer.run();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    [
      '',
      '  req/s: 2xx responses per second over HTTP, p50/p99 their latency (ms). direct tx/s: the same',
      '  transaction (BEGIN; set_config role, claims, request; statement; COMMIT) replayed by',
      `  ${CONNECTIONS} in-process loops through the same server/db calls on the same database. of direct:`,
      `  req/s ÷ direct tx/s, median of the ${ROUNDS} rounds (each round's in brackets); overhead = direct`,
      "  tx/s ÷ req/s over all rounds. CPU µs: this process's CPU time per request served / per direct",
      "  transaction (the load generator is another process): the gateway's own cost, little moved by",
      "  the machine's load. load gen: the load generator's CPU µs per request (another process on the",
      '  same cores: wrk when installed, else autocannon, whose per-request JS costs several times',
      "  more; `apt-get install wrk`). PG CPU µs: PostgreSQL's processes per request / per direct",
      '  transaction (PGlite runs inside this process). p50: median of the rounds, p99: the worst round.',
      '  db: batch = BEGIN, context, statement and COMMIT',
      '  pipelined (one round trip on PostgreSQL); tx = a transaction with the context as prelude.',
      '  failed: non-2xx or errors, HTTP/direct. RPC: a listener only plays tracks of later users',
      '  (two users playing each other at once deadlock on PostgreSQL: see bench/rest-seed.ts).',
      `  Anchor: ${ANCHOR}. REST section: ${seconds} s.`,
    ].join('\n'),
  );
}
