/**
 * Storage integration harness: a fresh migrated database, `/rest/v1` and `/storage/v1` on a real
 * port, users, and supabase-js clients for them, as the app uses them.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { Hono } from 'hono';
import type { Database } from '../db/database';
import { openTestDatabase } from '../db/test-database';
import { createUser, type TestUser } from '../db/test-factories';
import { serveHttp } from '../http/serve';
import { loadKeys, signHs256, type Keys } from '../keys';
import { createStorageApp } from './app';
import { openObjectStore, type ObjectStore } from './object-store';

export interface StorageHarness {
  db: Database;
  keys: Keys;
  store: ObjectStore;
  url: string;
  /** A signed access token for a user (expires in an hour). */
  tokenFor: (user: TestUser) => string;
  /** supabase-js as the app uses it; signed in as `user` when given, anon otherwise. */
  client: (user?: TestUser) => SupabaseClient;
  newUser: () => Promise<TestUser>;
  close: () => Promise<void>;
}

/** Stand-in WebSocket: realtime is never opened by these tests. */
function NoWebSocket(): never {
  throw new Error('realtime is not used by the storage tests');
}

/**
 * Serves `app` on a free loopback port through serveHttp, as `npm start` serves it (its 65 s
 * keep-alive: with Node's default 5 s, a request sent on an idle connection as the server closed
 * it failed with "fetch failed"; CI saw it once, after a test that paused 5 s between fetches).
 */
export async function serveApp(app: Hono): Promise<{ url: string; close: () => Promise<void> }> {
  const { url, close } = await serveHttp(app.fetch, { port: 0, hostname: '127.0.0.1' });
  return { url, close };
}

export function supabaseClient(url: string, anonKey: string, token?: string): SupabaseClient {
  return createClient(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: NoWebSocket as never },
    global: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
}

export function accessToken(keys: Keys, user: TestUser, ttlSeconds = 3600): string {
  const now = Math.floor(Date.now() / 1000);
  return signHs256({ ...user.claims, iat: now, exp: now + ttlSeconds }, keys.jwtSecret);
}

/** `dataDir`: DATA_DIR for the object store ('memory' by default). */
export async function startStorageHarness(dataDir = 'memory'): Promise<StorageHarness> {
  const test = await openTestDatabase();
  const keys = loadKeys(
    { JWT_SECRET: 'storage-test-secret-at-least-32-characters' },
    () => undefined,
  );
  const store = openObjectStore(dataDir);
  const app = new Hono();
  app.route('/storage/v1', createStorageApp({ db: test.db, keys, store }));
  const server = await serveApp(app);
  const tokenFor = (user: TestUser) => accessToken(keys, user);
  return {
    db: test.db,
    keys,
    store,
    url: server.url,
    tokenFor,
    client: (user) => supabaseClient(server.url, keys.anonKey, user ? tokenFor(user) : undefined),
    newUser: () => createUser(test.db),
    close: async () => {
      await server.close();
      await test.close();
    },
  };
}
