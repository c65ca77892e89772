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
import { openObjectStore, type ObjectStore } from '../storage/object-store';
import { accessToken, serveApp, supabaseClient } from '../storage/test-support';
import {
  createStripeSandboxServer,
  sandboxKeys,
  type StripeSandboxServer,
} from '../stripe-sandbox';
import { createFunctionsApp } from './app';

export interface FunctionsHarness {
  db: Database;
  keys: Keys;
  /** The storage API's bytes (memory). */
  store: ObjectStore;
  url: string;
  tokenFor: (user: TestUser) => string;
  client: (user?: TestUser) => SupabaseClient;
  newUser: () => Promise<TestUser>;
  invokeRaw: (name: string, init?: RequestInit) => Promise<Response>;
  /** The local payment sandbox at `/v1` and `/_stripe` (with `stripeSandbox: true`). */
  stripe: StripeSandboxServer | null;
  close: () => Promise<void>;
}

export async function startFunctionsHarness(
  opts: { functionsDir?: string; stripeSandbox?: boolean; webhookRetryDelaysMs?: number[] } = {},
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
  const store = openObjectStore('memory');
  app.route('/storage/v1', createStorageApp({ db: test.db, keys, store }));
  // As `npm start` without STRIPE_SECRET_KEY: the sandbox on this server, the functions pointed
  // at it. Its public URL and webhook endpoint are set once the port is known.
  const stripe = opts.stripeSandbox
    ? createStripeSandboxServer({
        publicUrl: 'http://127.0.0.1',
        keys: sandboxKeys(keys.jwtSecret),
        retryDelaysMs: opts.webhookRetryDelaysMs ?? [100, 200],
      })
    : null;
  const env = stripe
    ? {
        STRIPE_SECRET_KEY: stripe.keys.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.keys.webhookSecret,
      }
    : {};
  app.route(
    '/functions/v1',
    createFunctionsApp({
      db: test.db,
      keys,
      env,
      functionsDir: opts.functionsDir,
      localStripeApi: stripe !== null,
    }),
  );
  if (stripe) {
    app.route('/v1', stripe.api);
    app.route('/_stripe', stripe.pages);
  }
  const server = await serveApp(app);
  if (stripe) {
    stripe.sandbox.publicUrl = server.url;
    for (const endpoint of stripe.endpoints) {
      endpoint.url = `${server.url}/functions/v1/stripe-webhook`;
    }
  }
  const tokenFor = (user: TestUser) => accessToken(keys, user);
  return {
    db: test.db,
    keys,
    store,
    url: server.url,
    tokenFor,
    client: (user) => supabaseClient(server.url, keys.anonKey, user ? tokenFor(user) : undefined),
    newUser: () => createUser(test.db),
    invokeRaw: (name, init) => fetch(`${server.url}/functions/v1/${name}`, init),
    stripe,
    close: async () => {
      stripe?.close();
      await server.close();
      await test.close();
    },
  };
}
