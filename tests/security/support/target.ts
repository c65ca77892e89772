/**
 * The target: the real embedded backend (server/backend.ts, every module `npm start` mounts) on
 * a real port, on a fresh migrated database (in-memory PGlite, or a new database in
 * TEST_DATABASE_URL's PostgreSQL). The suite talks to it over HTTP only; the database handle
 * is for arranging the world and for checking what an attack changed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBackend, type Backend } from '../../../server/backend';
import type { Database } from '../../../server/db/database';
import { openTestDatabase, testDatabaseKind } from '../../../server/db/test-database';
import { createApp } from '../../../server/http/app';
import { serveHttp } from '../../../server/http/serve';
import { signHs256, type Keys } from '../../../server/keys';
import type { TestUser } from '../../../server/db/test-factories';
import { send, type Exchange, type SendInit } from './http';

export const ADMIN_EMAIL = 'boss@security.test';

export interface Target {
  url: string;
  db: Database;
  keys: Keys;
  backend: Backend;
  kind: 'pglite' | 'postgres';
  /** DATA_DIR of the target: stored files are under `<dataDir>/storage`. */
  dataDir: string;
  /** An access token of `user` as the auth server issues them (valid for an hour). */
  token: (user: TestUser) => string;
  /** A request to the target; `as` sends the anon key and, for a user, their token. */
  request: (
    method: string,
    path: string,
    init?: SendInit & { as?: TestUser | 'anon' | 'service' | null },
  ) => Promise<Exchange>;
  /** GET /healthz answers: the server is alive after an attack. */
  healthy: () => Promise<boolean>;
  close: () => Promise<void>;
}

export async function startTarget(): Promise<Target> {
  const test = await openTestDatabase();
  const dist = mkdtempSync(join(tmpdir(), 'soundloft-security-dist-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'soundloft-security-data-'));
  let backend: Backend | undefined;
  let server: Awaited<ReturnType<typeof serveHttp>> | undefined;
  try {
    const composed: { app?: ReturnType<typeof createApp> } = {};
    // The public URL is known once the port is: serve first, compose the app behind it.
    server = await serveHttp(
      (req, env) =>
        composed.app ? composed.app.fetch(req, env) : new Response('starting', { status: 503 }),
      {
        port: 0,
        hostname: '127.0.0.1',
      },
    );
    backend = await startBackend(
      {
        JWT_SECRET: 'security-suite-secret-with-at-least-32-characters',
        DATA_DIR: dataDir,
        ADMIN_EMAILS: ADMIN_EMAIL,
        SEED: 'none',
        PROCESSING_WORKERS: '0',
        STEMS_WORKERS: '0',
      },
      { publicUrl: server.url, database: test.db },
    );
    composed.app = createApp({
      distDir: dist,
      mounts: backend.mounts,
      devConfig: backend.devConfig,
      appConfig: backend.appConfig,
    });
    // The same fast path as `npm start`: the attacks reach /rest/v1 the way they would there.
    server.useFastPath(backend.fastPath);
    backend.realtime.attach(server.server);
  } catch (error) {
    await server?.close();
    await backend?.close();
    await test.close();
    throw error;
  }
  const { url } = server;
  const keys = backend.keys;
  const token = (user: TestUser) => {
    const now = Math.floor(Date.now() / 1000);
    return signHs256({ ...user.claims, iat: now, exp: now + 3600 }, keys.jwtSecret);
  };
  const running = { server, backend };
  return {
    url,
    db: test.db,
    keys,
    backend,
    kind: testDatabaseKind(),
    dataDir,
    token,
    request: (method, path, init = {}) => {
      const { as = 'anon', headers = {}, body } = init;
      const auth: Record<string, string> = {};
      if (as === 'service') {
        auth.apikey = keys.serviceRoleKey;
        auth.Authorization = `Bearer ${keys.serviceRoleKey}`;
      } else if (as === 'anon') auth.apikey = keys.anonKey;
      else if (as) {
        auth.apikey = keys.anonKey;
        auth.Authorization = `Bearer ${token(as)}`;
      }
      const type: Record<string, string> =
        typeof body === 'string' ? { 'Content-Type': 'application/json' } : {};
      return send(method, `${url}${path}`, { headers: { ...auth, ...type, ...headers }, body });
    },
    healthy: async () => {
      try {
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(30_000) });
        return res.status === 200;
      } catch {
        return false;
      }
    },
    close: async () => {
      await running.server.close();
      await running.backend.close();
      await test.close();
      rmSync(dist, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
