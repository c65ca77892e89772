/**
 * Prometheus metrics (`GET /metrics`, prom-client; docs/deploy.md#metrics). Request counts and
 * latencies are observed per route family for every request, the REST fast path's included
 * (server/ops/http.ts sees requests before it); the job queues, realtime sockets and database
 * pool are read when Prometheus scrapes, so they cost nothing between scrapes.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/database';

export const ROUTE_FAMILIES = [
  'rest',
  'auth',
  'storage',
  'functions',
  'realtime',
  'ops',
  'app',
] as const;
export type RouteFamily = (typeof ROUTE_FAMILIES)[number];

const PREFIXES: [string, RouteFamily][] = [
  ['/rest/v1', 'rest'],
  ['/auth/v1', 'auth'],
  ['/storage/v1', 'storage'],
  ['/functions/v1', 'functions'],
  ['/realtime/v1', 'realtime'],
];
const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The family of a request path (`url` may carry a query string). */
export function routeFamily(url: string): RouteFamily {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  for (const [prefix, family] of PREFIXES)
    if (path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === '/'))
      return family;
  return OPS_PATHS.has(path) ? 'ops' : 'app';
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface MetricsSources {
  db?: Database;
  /** Open realtime sockets of this process. */
  realtimeConnections?: () => number;
}

export interface OpsMetrics {
  registry: Registry;
  observeRequest(family: RouteFamily, method: string, status: number, seconds: number): void;
  /** The exposition text and its content type. */
  render(): Promise<{ body: string; contentType: string }>;
}

export function createMetrics(sources: MetricsSources = {}): OpsMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'soundloft_' });

  const requests = new Histogram({
    name: 'soundloft_http_request_duration_seconds',
    help: 'HTTP requests by route family, method and status class: _count is the request rate, the buckets the latency (to the end of the answer)',
    labelNames: ['family', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  // prom-client hashes the label values on every observe; the children are kept by key instead.
  const children = new Map<string, ReturnType<typeof requests.labels>>();

  if (sources.realtimeConnections) {
    const connections = sources.realtimeConnections;
    new Gauge({
      name: 'soundloft_realtime_connections',
      help: 'Open realtime websockets on this process',
      registers: [registry],
      collect() {
        this.set(connections());
      },
    });
  }

  const db = sources.db;
  const poolStats = db?.poolStats?.bind(db);
  if (poolStats) {
    new Gauge({
      name: 'soundloft_db_pool_connections',
      help: 'Database connections of this process by state: total, idle, waiting (queries waiting for a connection). PGlite: one connection, waiting = statements queued behind it',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const stats = poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }
  if (db) {
    type Row = { queue: string; queued: number; running: number; oldest: number };
    // One query per scrape for both gauges (the registry collects them concurrently). The
    // database down: no rows, the last values stay, /readyz says what is wrong.
    let reading: Promise<Row[]> | null = null;
    const queues = () =>
      (reading ??= db
        .query<Row>(QUEUE_SQL)
        .then(
          (r) => r.rows,
          () => [],
        )
        .finally(() => {
          reading = null;
        }));
    new Gauge({
      name: 'soundloft_jobs',
      help: 'Jobs of a queue (processing, stems) by state queued (due or not) and running; the same on every node (read from the database)',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
      async collect() {
        for (const row of await queues()) {
          this.set({ queue: row.queue, state: 'queued' }, Number(row.queued));
          this.set({ queue: row.queue, state: 'running' }, Number(row.running));
        }
      },
    });
    new Gauge({
      name: 'soundloft_jobs_oldest_due_age_seconds',
      help: 'How long the oldest due queued job of a queue has waited (0 when none is due)',
      labelNames: ['queue'] as const,
      registers: [registry],
      async collect() {
        for (const row of await queues()) this.set({ queue: row.queue }, Number(row.oldest));
      },
    });
  }

  return {
    registry,
    observeRequest(family, method, status, seconds) {
      const m = METHODS.has(method) ? method : 'other';
      const s = status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
      const key = `${family} ${m} ${s}`;
      let child = children.get(key);
      if (!child) {
        child = requests.labels(family, m, s);
        children.set(key, child);
      }
      child.observe(seconds);
    },
    async render() {
      return { body: await registry.metrics(), contentType: registry.contentType };
    },
  };
}

/** Both queues in one statement; the queued and running counts use partial indexes. */
const QUEUE_SQL = ['track_jobs', 'stem_jobs']
  .map(
    (table) => `select '${table === 'track_jobs' ? 'processing' : 'stems'}' as queue,
       (select count(*) from public.${table} where state = 'queued')::int as queued,
       (select count(*) from public.${table} where state = 'running')::int as running,
       coalesce((select extract(epoch from now() - min(run_after)) from public.${table}
                  where state = 'queued' and run_after <= now()), 0)::float8 as oldest`,
  )
  .join('\nunion all\n');

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Who may read /metrics: a request from loopback that no proxy forwarded (no X-Forwarded-For),
 * or one with `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN, only loopback.
 */
export function metricsAccess(
  req: IncomingMessage,
  token: string | undefined,
): 'ok' | 'unauthorized' | 'forbidden' {
  const remote = req.socket.remoteAddress ?? '';
  if (LOOPBACK.has(remote) && req.headers['x-forwarded-for'] === undefined) return 'ok';
  if (!token) return 'forbidden';
  const header = req.headers.authorization ?? '';
  const given = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? '';
  // Compared as digests: equal lengths for timingSafeEqual, and no length leak.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return given && timingSafeEqual(digest(given), digest(token)) ? 'ok' : 'unauthorized';
}
