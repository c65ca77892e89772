/**
 * Functions integration harness: the embedded Supabase surface (`/rest/v1`, `/storage/v1`,
 * `/functions/v1`) on a real port over a fresh migrated database, as `npm start` serves it, with
 * supabase-js clients for test users.
 */
import { Hono } from 'hono';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../db/database';
import { openTestDatabase } from '../db/test-database';
import { createUser, type TestUser } from '../db/test-factories';
import { loadKeys, type Keys } from '../keys';
import { createRestApp } from '../rest';
import { createStorageApp } from '../storage/app';
import { openObjectStore } from '../storage/object-store';
import { accessToken, serveApp, supabaseClient } from '../storage/test-support';
import { createFunctionsApp } from './app';

export interface FunctionsHarness {
  db: Database;
  keys: Keys;
  url: string;
  tokenFor: (user: TestUser) => string;
  client: (user?: TestUser) => SupabaseClient;
  newUser: () => Promise<TestUser>;
  invokeRaw: (name: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
}

export async function startFunctionsHarness(
  opts: { functionsDir?: string } = {},
): Promise<FunctionsHarness> {
  const test = await openTestDatabase();
  const keys = loadKeys(
    { JWT_SECRET: 'functions-test-secret-at-least-32-characters' },
    () => undefined,
  );
  const rest = createRestApp({ db: test.db, keys });
  await rest.ready;
  const app = new Hono();
  app.route('/rest/v1', rest);
  app.route(
    '/storage/v1',
    createStorageApp({ db: test.db, keys, store: openObjectStore('memory') }),
  );
  app.route(
    '/functions/v1',
    createFunctionsApp({ db: test.db, keys, env: {}, functionsDir: opts.functionsDir }),
  );
  const server = await serveApp(app);
  const tokenFor = (user: TestUser) => accessToken(keys, user);
  return {
    db: test.db,
    keys,
    url: server.url,
    tokenFor,
    client: (user) => supabaseClient(server.url, keys.anonKey, user ? tokenFor(user) : undefined),
    newUser: () => createUser(test.db),
    invokeRaw: (name, init) => fetch(`${server.url}/functions/v1/${name}`, init),
    close: async () => {
      await server.close();
      await test.close();
    },
  };
}
