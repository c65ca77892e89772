/**
 * server/ops: roles and settings, readiness on a real database and object store, the HTTP front
 * (request ids, /metrics access, the REST fast path counted, JSON log lines) on a real server.
 */
import { Writable } from 'node:stream';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../db/use-test-database';
import { serveHttp } from '../http/serve';
import { createRestApp } from '../rest';
import { loadKeys } from '../keys';
import { createMemoryObjectStore } from '../storage/object-store';
import { createHealth } from './health';
import { createOpsFront } from './http';
import { loadOpsConfig } from './index';
import { createLogger, parseLogFormat } from './log';
import { createMetrics, metricsAccess, routeFamily } from './metrics';
import { dutiesOf, parseHealthPort, parseRole } from './role';
import type { IncomingMessage } from 'node:http';

const test = useTestDatabase();

describe('SOUNDLOFT_ROLE and the ops settings', () => {
  it('defaults to all (today: everything), accepts web and worker, refuses the rest', () => {
    expect(parseRole({})).toBe('all');
    expect(parseRole({ SOUNDLOFT_ROLE: ' web ' })).toBe('web');
    expect(parseRole({ SOUNDLOFT_ROLE: 'worker' })).toBe('worker');
    expect(() => parseRole({ SOUNDLOFT_ROLE: 'Web' })).toThrow(
      'SOUNDLOFT_ROLE must be one of all, web, worker (default all), got "Web"',
    );
    expect(dutiesOf('all')).toEqual({
      http: true,
      jobs: true,
      sweeps: true,
      seeds: true,
      buildsFrontEnd: true,
    });
    expect(dutiesOf('web')).toMatchObject({ http: true, jobs: false, sweeps: false, seeds: false });
    expect(dutiesOf('worker')).toMatchObject({ http: false, jobs: true, buildsFrontEnd: false });
  });

  it('reads HEALTH_PORT, LOG_FORMAT and the drain bounds, and names a bad one', () => {
    expect(parseHealthPort({})).toBe(8788);
    expect(parseHealthPort({ HEALTH_PORT: '9100' })).toBe(9100);
    expect(() => parseHealthPort({ HEALTH_PORT: 'x' })).toThrow(/HEALTH_PORT/);
    expect(parseLogFormat({})).toBe('text');
    expect(parseLogFormat({ NODE_ENV: 'production' })).toBe('json');
    expect(parseLogFormat({ NODE_ENV: 'production', LOG_FORMAT: 'text' })).toBe('text');
    expect(() => parseLogFormat({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be json or text/);
    expect(loadOpsConfig({})).toMatchObject({
      role: 'all',
      drainTimeoutMs: 30_000,
      drainDelayMs: 0,
      metricsToken: undefined,
    });
    expect(() => loadOpsConfig({ DRAIN_TIMEOUT_MS: '-1' })).toThrow(/DRAIN_TIMEOUT_MS/);
    expect(() => loadOpsConfig({ DRAIN_DELAY_MS: '30000' })).toThrow(/shorter than/);
  });

  it('sorts paths into route families', () => {
    expect(routeFamily('/rest/v1/tracks?select=id')).toBe('rest');
    expect(routeFamily('/rest/v1')).toBe('rest');
    expect(routeFamily('/rest/v10')).toBe('app');
    expect(routeFamily('/auth/v1/token?grant_type=password')).toBe('auth');
    expect(routeFamily('/storage/v1/object/sign/tracks/a.mp3?token=x')).toBe('storage');
    expect(routeFamily('/functions/v1/spleeter')).toBe('functions');
    expect(routeFamily('/realtime/v1/websocket?apikey=x')).toBe('realtime');
    expect(routeFamily('/readyz')).toBe('ops');
    expect(routeFamily('/metrics?x=1')).toBe('ops');
    expect(routeFamily('/library')).toBe('app');
    expect(routeFamily('/_dev/mail')).toBe('app');
  });
});

describe('/readyz', () => {
  it('is ready with the database and the store answering; not while draining', async () => {
    const health = createHealth({ db: test.db, store: createMemoryObjectStore() });
    expect(await health.check()).toEqual({
      ready: true,
      draining: false,
      checks: { database: 'ok', storage: 'ok' },
    });
    health.startDraining();
    expect(await health.check()).toMatchObject({ ready: false, draining: true });
  });

  it('is not ready when the store or the database fails, and says which', async () => {
    const broken = {
      size: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9000')),
    };
    const storeDown = await createHealth({ db: test.db, store: broken }).check();
    expect(storeDown).toEqual({
      ready: false,
      draining: false,
      checks: { database: 'ok', storage: 'connect ECONNREFUSED 127.0.0.1:9000' },
    });
    const hanging = { query: () => new Promise<never>(() => undefined) };
    const dbDown = await createHealth({
      db: hanging,
      store: createMemoryObjectStore(),
      timeoutMs: 50,
    }).check();
    expect(dbDown.ready).toBe(false);
    expect(dbDown.checks.database).toBe('the database did not answer within 50 ms');
  });
});

/** A real server: a REST app behind its fast path, with the ops front before both. */
async function serveWithFront(metricsToken?: string) {
  const keys = loadKeys({}, () => undefined);
  const rest = createRestApp({ db: test.db, keys });
  await rest.ready;
  const app = new Hono();
  app.route('/rest/v1', rest);
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean))
        lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger('json', sink);
  const metrics = createMetrics({ db: test.db, realtimeConnections: () => 3 });
  const health = createHealth({ db: test.db, store: createMemoryObjectStore() });
  const server = await serveHttp(app.fetch, {
    port: 0,
    hostname: '127.0.0.1',
    fastPath: rest.nodeListener('/rest/v1'),
    front: createOpsFront({ logger, metrics, health, metricsToken }),
  });
  return { ...server, keys, lines, health };
}

describe('the ops front of the HTTP server', () => {
  it('echoes a sane X-Request-Id, replaces an insane one, and logs one JSON line per request', async () => {
    const s = await serveWithFront();
    try {
      const plans = `${s.url}/rest/v1/plans?select=id`;
      const kept = await fetch(plans, {
        headers: { apikey: s.keys.anonKey, 'X-Request-Id': 'lb-7f3a.22' },
      });
      expect(kept.status).toBe(200);
      expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.22');
      const replaced = await fetch(plans, {
        headers: { apikey: s.keys.anonKey, 'X-Request-Id': 'a b"<script>' },
      });
      const id = replaced.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      await replaced.text();
      const none = await fetch(`${s.url}/nothing`);
      expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      await none.text();
      await expect.poll(() => s.lines.length).toBe(3);
      expect(s.lines[0]).toMatchObject({
        level: 'info',
        msg: 'request',
        reqId: 'lb-7f3a.22',
        method: 'GET',
        family: 'rest',
        path: '/rest/v1/plans',
        status: 200,
      });
      expect(typeof s.lines[0]?.ms).toBe('number');
      expect(typeof s.lines[0]?.time).toBe('string');
      expect(s.lines[1]).toMatchObject({ reqId: id });
      expect(s.lines[2]).toMatchObject({ family: 'app', status: 404 });
    } finally {
      await s.close();
    }
  });

  it('counts the REST fast path and the Hono path, and exposes queues, pool and sockets', async () => {
    const s = await serveWithFront();
    try {
      for (let i = 0; i < 3; i++)
        await (
          await fetch(`${s.url}/rest/v1/plans?select=id`, { headers: { apikey: s.keys.anonKey } })
        ).text();
      await (await fetch(`${s.url}/rest/v1/nope`, { headers: { apikey: s.keys.anonKey } })).text();
      const res = await fetch(`${s.url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await res.text();
      expect(text).toContain(
        'soundloft_http_request_duration_seconds_count{family="rest",method="GET",status="2xx"} 3',
      );
      expect(text).toContain(
        'soundloft_http_request_duration_seconds_count{family="rest",method="GET",status="4xx"} 1',
      );
      expect(text).toContain('soundloft_jobs{queue="processing",state="queued"} 0');
      expect(text).toContain('soundloft_jobs{queue="stems",state="running"} 0');
      expect(text).toContain('soundloft_jobs_oldest_due_age_seconds{queue="stems"} 0');
      expect(text).toContain('soundloft_realtime_connections 3');
      expect(text).toMatch(/soundloft_db_pool_connections\{state="total"\} [1-9]/);
      expect(text).toContain('soundloft_process_cpu_seconds_total');
    } finally {
      await s.close();
    }
  });

  it('answers /healthz, and /readyz 503 once draining, with Connection: close', async () => {
    const s = await serveWithFront();
    try {
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
      s.health.startDraining();
      const draining = await fetch(`${s.url}/readyz`);
      expect(draining.status).toBe(503);
      expect(draining.headers.get('connection')).toBe('close');
      expect(await draining.json()).toMatchObject({ ready: false, draining: true });
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('who may read /metrics', () => {
  const req = (remoteAddress: string, headers: Record<string, string> = {}) =>
    ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

  it('loopback without a proxy header: yes; beyond: only with the token', () => {
    expect(metricsAccess(req('127.0.0.1'), undefined)).toBe('ok');
    expect(metricsAccess(req('::1'), undefined)).toBe('ok');
    expect(metricsAccess(req('::ffff:127.0.0.1'), 'secret')).toBe('ok');
    expect(metricsAccess(req('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }), undefined)).toBe(
      'forbidden',
    );
    expect(metricsAccess(req('10.0.0.7'), undefined)).toBe('forbidden');
    expect(metricsAccess(req('10.0.0.7'), 'secret')).toBe('unauthorized');
    expect(metricsAccess(req('10.0.0.7', { authorization: 'Bearer nope' }), 'secret')).toBe(
      'unauthorized',
    );
    expect(metricsAccess(req('10.0.0.7', { authorization: 'Bearer secret' }), 'secret')).toBe('ok');
  });

  it('a proxied request gets 403 without a token, 401 with a wrong one, 200 with it', async () => {
    const open = await serveWithFront();
    const guarded = await serveWithFront('m3trics-t0ken');
    try {
      const proxied = { 'X-Forwarded-For': '203.0.113.9' };
      expect((await fetch(`${open.url}/metrics`, { headers: proxied })).status).toBe(403);
      const wrong = await fetch(`${guarded.url}/metrics`, {
        headers: { ...proxied, Authorization: 'Bearer wrong' },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
      const right = await fetch(`${guarded.url}/metrics`, {
        headers: { ...proxied, Authorization: 'Bearer m3trics-t0ken' },
      });
      expect(right.status).toBe(200);
      expect(await right.text()).toContain('soundloft_http_request_duration_seconds');
    } finally {
      await open.close();
      await guarded.close();
    }
  });
});
