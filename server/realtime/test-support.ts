/**
 * Integration-test harness: a fresh migrated database (PGlite, or TEST_DATABASE_URL's
 * PostgreSQL), the REST server and Realtime on one real port, and clients made with the official
 * libraries (@supabase/realtime-js, @supabase/supabase-js) over the `ws` package.
 */
import { RealtimeClient, type RealtimeChannel } from '@supabase/realtime-js';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { Hono } from 'hono';
import WebSocket from 'ws';
import type { Database } from '../db/database';
import { openTestDatabase, type TestDatabase } from '../db/test-database';
import { serveHttp } from '../http/serve';
import { loadKeys, userToken, type Keys } from '../keys/keys';
import { createRestApp } from '../rest';
import type { ClusterOptions } from './cluster';
import { startRealtime, type Realtime, type RealtimeLimits } from './index';

export interface RealtimeHarness {
  db: Database;
  keys: Keys;
  url: string;
  realtime: Realtime;
  /** Another connection to the database, for a second node (TestDatabase.openAnotherNode). */
  openAnotherNode: () => Promise<Database>;
  /** The database's URL on PostgreSQL (a node in another process), else null. */
  databaseUrl: string | null;
  /** An access token of this user, valid for `ttlSeconds`. */
  token: (userId: string, ttlSeconds?: number) => string;
  /** A realtime-js client (not connected until a channel subscribes). */
  realtimeClient: (opts?: { token?: string; vsn?: string }) => RealtimeClient;
  /** supabase-js as the user (REST and Realtime with the same token). */
  supabase: (token: string) => SupabaseClient;
  close: () => Promise<void>;
}

export async function startRealtimeHarness(
  limits: Partial<RealtimeLimits> = {},
  node: {
    /** Serve this database (another node's connection, opened and closed by the caller). */
    db?: Database;
    cluster?: ClusterOptions;
  } = {},
): Promise<RealtimeHarness> {
  const test: TestDatabase = node.db
    ? {
        db: node.db,
        url: null,
        close: async () => undefined,
        openAnotherNode: () => Promise.reject(new Error('open it from the first node')),
      }
    : await openTestDatabase();
  const keys = loadKeys(
    { JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long' },
    () => undefined,
  );
  const realtime = await startRealtime({
    db: test.db,
    jwtSecret: keys.jwtSecret,
    limits,
    cluster: node.cluster,
  });
  // Clients heartbeat at half the server's timeout, at most every 15 s. Phoenix gives each
  // heartbeat's reply one interval: a short interval (it was 500 ms everywhere) timed out on a
  // loaded machine in tests that do not need it.
  const heartbeatIntervalMs = Math.min(15_000, realtime.server.limits.heartbeatTimeoutMs / 2);
  const rest = createRestApp({ db: test.db, keys });
  await rest.ready;
  const app = new Hono();
  app.route('/rest/v1', rest);
  app.route('/realtime/v1', realtime.http);
  // serveHttp: npm start's server, with its 65 s keep-alive (server/http/serve.ts).
  const { server, port } = await serveHttp(app.fetch, { port: 0, hostname: '127.0.0.1' });
  realtime.attach(server);
  const url = `http://127.0.0.1:${port}`;
  const clients: RealtimeClient[] = [];
  const supabases: SupabaseClient[] = [];
  return {
    db: test.db,
    keys,
    url,
    realtime,
    openAnotherNode: () => test.openAnotherNode(),
    databaseUrl: test.url,
    token: (userId, ttlSeconds = 3600) => userToken(userId, keys.jwtSecret, ttlSeconds),
    realtimeClient: ({ token, vsn } = {}) => {
      const client = new RealtimeClient(`${url}/realtime/v1`, {
        params: { apikey: keys.anonKey },
        transport: WebSocket as never,
        heartbeatIntervalMs,
        ...(vsn ? { vsn } : {}),
      });
      if (token) void client.setAuth(token);
      clients.push(client);
      return client;
    },
    supabase: (token) => {
      const client = createClient(url, keys.anonKey, {
        accessToken: () => Promise.resolve(token),
        realtime: { transport: WebSocket as never, heartbeatIntervalMs },
      });
      supabases.push(client);
      return client;
    },
    close: async () => {
      for (const c of supabases) await c.removeAllChannels();
      for (const c of clients) await c.disconnect();
      await realtime.close();
      await new Promise<void>((done) => server.close(() => done()));
      await test.close();
    },
  };
}

/** Resolves once the channel reports SUBSCRIBED (rejects on an error or timeout). */
export function subscribed(channel: RealtimeChannel): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') resolve();
      else if (status !== 'CLOSED')
        reject(error ?? new Error(`channel ${channel.topic}: ${status}`));
    });
  });
}

/** Collects values and waits for one that satisfies a predicate. */
export class Inbox<T> {
  readonly items: T[] = [];
  #waiters: { test: (item: T) => boolean; resolve: (item: T) => void }[] = [];

  push = (item: T): void => {
    this.items.push(item);
    this.#waiters = this.#waiters.filter((w) => {
      if (!w.test(item)) return true;
      w.resolve(item);
      return false;
    });
  };

  next(test: (item: T) => boolean = () => true, timeoutMs = 10_000): Promise<T> {
    const found = this.items.find(test);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`nothing matched within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#waiters.push({
        test,
        resolve: (item) => {
          clearTimeout(timer);
          resolve(item);
        },
      });
    });
  }
}
