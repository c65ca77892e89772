/**
 * Storage integration harness: a fresh migrated database, `/rest/v1` and `/storage/v1` on a real
 * port, users, and supabase-js clients for them, as the app uses them.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { Hono } from 'hono';
import type { Database } from '../db/database';
import { afterAll, beforeAll } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS, openTestDatabase } from '../db/test-database';
import { createUser, type TestUser } from '../db/test-factories';
import { serveHttp } from '../http/serve';
import { loadKeys, signHs256, type Keys } from '../keys';
import { createStorageApp } from './app';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openObjectStore, type ObjectStore } from './object-store';
import { createS3ObjectStore } from './s3-object-store';
import { startTestS3Server, type TestS3Server } from './test-s3';

/**
 * Where the harness keeps bytes: `files` (a fresh DATA_DIR, as `npm start`), `s3` (a fresh s3rver
 * started for the harness), `memory`, or `{ dataDir }`.
 */
export type StorageBackend = 'memory' | 'files' | 's3' | { dataDir: string };

/** The backends every storage suite runs on: Storage must answer the same on both. */
export const STORAGE_BACKENDS = ['files', 's3'] as const;

export interface StorageHarness {
  db: Database;
  /** The S3 server, on the `s3` backend. */
  s3: TestS3Server | null;
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

/** A TUS PATCH of `body` at `offset` (`headers`: Tus-Resumable and the caller's authorization). */
export function tusPatch(
  url: string,
  offset: number,
  body: Uint8Array<ArrayBuffer>,
  headers: Record<string, string>,
): Promise<Response> {
  return fetch(url, {
    method: 'PATCH',
    headers: {
      ...headers,
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    },
    body,
  });
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

async function openStore(backend: StorageBackend) {
  if (backend === 's3') {
    const s3 = await startTestS3Server();
    return { store: createS3ObjectStore(s3.config), s3, dataDir: 'memory', close: s3.close };
  }
  const temporary = backend === 'files' ? mkdtempSync(join(tmpdir(), 'soundloft-storage-')) : null;
  const dataDir = temporary ?? (typeof backend === 'string' ? 'memory' : backend.dataDir);
  const close = async () => {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  };
  return { store: openObjectStore(dataDir), s3: null, dataDir, close };
}

/** The object store of the harness (`memory` by default), see StorageBackend. */
export async function startStorageHarness(
  backend: StorageBackend = 'memory',
): Promise<StorageHarness> {
  const test = await openTestDatabase();
  const keys = loadKeys(
    { JWT_SECRET: 'storage-test-secret-at-least-32-characters' },
    () => undefined,
  );
  const { store, s3, dataDir, close: closeStore } = await openStore(backend);
  const app = new Hono();
  app.route('/storage/v1', createStorageApp({ db: test.db, keys, store, dataDir }));
  const server = await serveApp(app);
  const tokenFor = (user: TestUser) => accessToken(keys, user);
  return {
    db: test.db,
    s3,
    keys,
    store,
    url: server.url,
    tokenFor,
    client: (user) => supabaseClient(server.url, keys.anonKey, user ? tokenFor(user) : undefined),
    newUser: () => createUser(test.db),
    close: async () => {
      await server.close();
      await test.close();
      await closeStore();
    },
  };
}

/**
 * The suites' set-up: a harness on `backend` and two users (alice and bob), started before the
 * tests of the calling `describe` and closed after them; `use` receives them.
 */
export function useHarnessWithTwoUsers(
  backend: StorageBackend,
  use: (started: { h: StorageHarness; alice: TestUser; bob: TestUser }) => void,
): void {
  let h: StorageHarness | undefined;
  beforeAll(async () => {
    h = await startStorageHarness(backend);
    use({ h, alice: await h.newUser(), bob: await h.newUser() });
  }, DATABASE_HOOK_TIMEOUT_MS);
  afterAll(async () => h?.close(), DATABASE_HOOK_TIMEOUT_MS);
}
