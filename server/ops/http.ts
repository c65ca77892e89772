/**
 * What every HTTP request meets first, before the REST fast path and Hono (server/http/serve.ts
 * `front`): a request id (a sane incoming `X-Request-Id` from the load balancer, else a new
 * UUID) echoed in the answer, one log line and one latency observation when the answer ends,
 * and the operations endpoints `/healthz`, `/readyz` and `/metrics` (docs/deploy.md).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { NodeFastPath } from '../rest/node';
import type { Health } from './health';
import type { Logger } from './log';
import { metricsAccess, routeFamily, type OpsMetrics } from './metrics';

/** Letters, digits and `._:-+=/@`, at most 128: safe in a header and a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:+=/@-]{1,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export interface OpsHttpOptions {
  logger: Logger;
  /** Absent: no /metrics (404) and nothing observed. */
  metrics?: OpsMetrics;
  /** Absent: /healthz and /readyz are left to the app. */
  health?: Health;
  /** METRICS_TOKEN: Bearer token for /metrics from beyond loopback. */
  metricsToken?: string;
}

function json(res: ServerResponse, status: number, body: unknown, head: boolean): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(head ? undefined : text);
}

async function answerOps(
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
  o: OpsHttpOptions & { health: Health },
): Promise<void> {
  const head = req.method === 'HEAD';
  // The answer of the app's own /healthz (server/http/app.ts: servers without this front).
  if (path === '/healthz') return json(res, 200, { ok: true }, head);
  if (path === '/readyz') {
    const readiness = await o.health.check();
    return json(res, readiness.ready ? 200 : 503, readiness, head);
  }
  // /metrics
  if (!o.metrics) return json(res, 404, { error: 'not found' }, head);
  const access = metricsAccess(req, o.metricsToken);
  if (access !== 'ok') {
    if (access === 'unauthorized') res.setHeader('WWW-Authenticate', 'Bearer');
    return json(res, access === 'unauthorized' ? 401 : 403, { error: access }, head);
  }
  const { body, contentType } = await o.metrics.render();
  res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  res.end(head ? undefined : body);
}

/** The front of the main HTTP server: tags, measures and logs every request; answers ops paths. */
export function createOpsFront(o: OpsHttpOptions): NodeFastPath {
  return (req, res) => {
    const start = performance.now();
    const reqId = requestIdOf(req);
    res.setHeader('X-Request-Id', reqId);
    // Behind a load balancer a draining node asks its clients to reconnect elsewhere.
    if (o.health?.draining) res.setHeader('Connection', 'close');
    const url = req.url ?? '/';
    const family = routeFamily(url);
    res.once('close', () => {
      // An answer the client did not wait for: 499, as nginx logs it.
      const status = res.writableFinished ? res.statusCode : 499;
      const ms = performance.now() - start;
      o.metrics?.observeRequest(family, req.method ?? 'GET', status, ms / 1000);
      const q = url.indexOf('?');
      o.logger.request({
        reqId,
        method: req.method ?? 'GET',
        family,
        path: q === -1 ? url : url.slice(0, q),
        status,
        ms: Math.round(ms * 10) / 10,
      });
    });
    const health = o.health;
    if (family !== 'ops' || !health || (req.method !== 'GET' && req.method !== 'HEAD'))
      return false;
    const q = url.indexOf('?');
    answerOps(q === -1 ? url : url.slice(0, q), req, res, { ...o, health }).catch(
      (error: unknown) => {
        o.logger.error('ops endpoint failed', { reqId, error: String(error) });
        if (!res.headersSent) json(res, 500, { error: 'internal error' }, false);
        else res.destroy();
      },
    );
    return true;
  };
}

/**
 * A worker's only HTTP: the ops endpoints on HEALTH_PORT (everything else 404), tagged and
 * logged like the main server's requests.
 */
export function serveOpsOnly(
  o: OpsHttpOptions & { health: Health },
  { port, hostname }: { port: number; hostname: string },
): Promise<{ server: Server; port: number }> {
  const front = createOpsFront(o);
  const server = createServer((req, res) => {
    if (!front(req, res)) json(res, 404, { error: 'not found' }, req.method === 'HEAD');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : port });
    });
  });
}
