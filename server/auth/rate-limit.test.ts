/**
 * The auth rate limits are counted in the database: two auth servers (two nodes, each with its
 * own connection pool on PostgreSQL) on one database share them, so a limit of N holds at N in
 * total. Also the limiter's own rules (atomic take, refund, reset, expiry) and its cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { DATABASE_HOOK_TIMEOUT_MS, closeInOrder, testDatabaseKind } from '../db/test-database';
import { RateLimiter } from './rate-limit';
import { startAuthTestServer, type AuthTestServer } from './test-support';

const PER_EMAIL = 4;
const PER_IP = 6;
let a: AuthTestServer;
let b: AuthTestServer;
let nodeB: Database;

beforeAll(async () => {
  const overrides = {
    rateLimit: { perEmail: PER_EMAIL, perIp: PER_IP, windowMs: 600_000 },
    mailMinInterval: 600,
  };
  a = await startAuthTestServer({ env: { TRUST_PROXY: 'true' }, overrides });
  nodeB = await a.openAnotherNode();
  b = await startAuthTestServer({ env: { TRUST_PROXY: 'true' }, overrides, db: nodeB });
  await a.service().auth.admin.createUser({
    email: 'dee@example.test',
    password: 'right-password',
    email_confirm: true,
  });
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(() => closeInOrder(b, nodeB, a), DATABASE_HOOK_TIMEOUT_MS);

const password = (node: AuthTestServer, email: string, pw: string, ip: string) =>
  node.auth('/token?grant_type=password', {
    method: 'POST',
    headers: { 'X-Forwarded-For': ip },
    body: JSON.stringify({ email, password: pw }),
  });

describe(`auth rate limits across two nodes (${testDatabaseKind()})`, () => {
  it('wrong passwords alternating between nodes are limited at N in total, not N per node', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_EMAIL + 2; i++) {
      const node = i % 2 === 0 ? a : b;
      statuses.push((await password(node, 'dee@example.test', 'bad', `10.9.0.${i}`)).status);
    }
    expect(statuses).toEqual([...Array<number>(PER_EMAIL).fill(400), 429, 429]);
    const limited = await password(b, 'dee@example.test', 'right-password', '10.9.1.1');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    });
  });

  it('concurrent wrong passwords on both nodes never pass the limit', async () => {
    const tries = Array.from({ length: 3 * PER_IP }, (_, i) =>
      password(i % 2 === 0 ? a : b, `nobody${i}@example.test`, 'bad', '10.8.0.1'),
    );
    const statuses = (await Promise.all(tries)).map((r) => r.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(PER_IP);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2 * PER_IP);
  });

  it('one mail per kind and address per interval, whichever node is asked', async () => {
    const recover = (node: AuthTestServer) =>
      node.auth('/otp', {
        method: 'POST',
        body: JSON.stringify({ email: 'eve@example.test', create_user: true }),
      });
    expect((await recover(a)).status).toBe(200);
    const again = await recover(b);
    expect(again.status).toBe(429);
    expect((await again.json()).code).toBe('over_email_send_rate_limit');
  });
});

describe('RateLimiter', () => {
  it('takes a hit on every key or none, refunds, resets and forgets expired windows', async () => {
    const limiter = new RateLimiter(a.db, 600_000);
    expect(await limiter.take({ k1: 2, k2: 1 })).toBe(0);
    // k2 is used up: nothing is taken, k1 keeps one hit.
    expect(await limiter.take({ k1: 2, k2: 1 })).toBeGreaterThan(0);
    expect(await limiter.take({ k1: 2 })).toBe(0);
    expect(await limiter.take({ k1: 2 })).toBeGreaterThan(590);
    await limiter.refund('k1');
    expect(await limiter.take({ k1: 2 })).toBe(0);
    await limiter.reset('k1');
    expect(await limiter.take({ k1: 2 })).toBe(0);
    // Hits older than the window no longer count (written as if taken 11 minutes ago).
    await a.db.query(
      `update auth.rate_limits set hits = array[now() - interval '11 minutes'] where key = 'k2'`,
    );
    expect(await limiter.take({ k2: 1 })).toBe(0);
  });

  it('costs one statement per check (the figure is printed)', async () => {
    const limiter = new RateLimiter(a.db, 600_000);
    const n = 200;
    const started = performance.now();
    for (let i = 0; i < n; i++)
      await limiter.take({ [`cost:email:${i % 20}`]: 1_000_000, [`cost:ip:${i % 5}`]: 1_000_000 });
    const ms = (performance.now() - started) / n;
    console.log(
      `rate limit take (2 keys) on ${a.db.kind}: ${ms.toFixed(3)} ms per check, ${n} checks`,
    );
    const { rows } = await a.db.query<{ hits: number }>(
      `select cardinality(hits) as hits from auth.rate_limits where key = 'cost:ip:0'`,
    );
    expect(rows[0]?.hits).toBe(n / 5);
  });
});
