/**
 * Integration-test harness: a fresh migrated database, the auth server (/auth/v1), the REST
 * gateway (/rest/v1) and the dev mailbox (/_dev) on a real port, and supabase-js clients that
 * talk to them exactly as the app does.
 */
import { serve, type ServerType } from '@hono/node-server';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { Hono } from 'hono';
import jsQR from 'jsqr';
import WebSocket from 'ws';
import { syncAdmins } from '../db/admins';
import type { Database } from '../db/database';
import { openTestDatabase } from '../db/test-database';
import { loadKeys, type Keys } from '../keys';
import { createDevMailApp, createDevMailbox, type Mailer, type StoredMail } from '../mail';
import { createRestApp } from '../rest';
import { createAuthApp } from './app';
import type { AuthConfigOverrides } from './config';

export const TEST_SECRET = 'auth-test-secret-with-at-least-32-characters';
export const ADMIN_EMAIL = 'admin@soundloft.test';

export interface AuthTestServer {
  url: string;
  db: Database;
  keys: Keys;
  mailer: Mailer;
  /** A supabase-js client with the anon key and its own in-memory session storage. */
  client(flowType?: 'implicit' | 'pkce'): SupabaseClient;
  /** A supabase-js client with the service-role key (admin API). */
  service(): SupabaseClient;
  /** The newest mail to `to` (throws when none). */
  lastMail(to: string): StoredMail;
  /** Another connection to its database, for a second node (TestDatabase.openAnotherNode). */
  openAnotherNode(): Promise<Database>;
  /** Raw fetch against /auth/v1 with the anon key. */
  auth(path: string, init?: RequestInit & { version?: boolean }): Promise<Response>;
  close(): Promise<void>;
}

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

export async function startAuthTestServer(
  opts: {
    env?: Record<string, string>;
    overrides?: AuthConfigOverrides;
    /** A second node: serves this database (opened and closed by the caller). */
    db?: Database;
  } = {},
): Promise<AuthTestServer> {
  const test = opts.db
    ? {
        db: opts.db,
        openAnotherNode: () => Promise.reject(new Error('open from the first node')),
        url: null,
        close: async () => undefined,
      }
    : await openTestDatabase();
  const { db } = test;
  if (!opts.db) await syncAdmins(db, [ADMIN_EMAIL]);
  const keys = loadKeys({ JWT_SECRET: TEST_SECRET });
  const mailer = createDevMailbox({ log: () => {} });
  let app: Hono | null = null;
  const server = await new Promise<{ server: ServerType; port: number }>((resolve) => {
    const s: ServerType = serve(
      { fetch: (req, env) => (app as Hono).fetch(req, env), port: 0, hostname: '127.0.0.1' },
      (info) => resolve({ server: s, port: info.port }),
    );
  });
  const url = `http://127.0.0.1:${server.port}`;
  const root = new Hono();
  root.route(
    '/auth/v1',
    createAuthApp({
      db,
      keys,
      mailer,
      publicUrl: url,
      env: opts.env ?? {},
      overrides: { bcryptCost: 4, mailMinInterval: 1, ...opts.overrides },
    }),
  );
  const rest = createRestApp({ db, keys });
  await rest.ready;
  root.route('/rest/v1', rest);
  root.route('/_dev', createDevMailApp(mailer));
  app = root;

  const make = (key: string, flowType: 'implicit' | 'pkce' = 'implicit') =>
    createClient(url, key, {
      auth: {
        storage: memoryStorage(),
        persistSession: true,
        autoRefreshToken: false,
        detectSessionInUrl: false,
        flowType,
      },
      realtime: { transport: WebSocket as never },
    });

  return {
    url,
    db,
    keys,
    mailer,
    client: (flowType) => make(keys.anonKey, flowType),
    service: () => make(keys.serviceRoleKey),
    lastMail(to) {
      const mail = mailer.list().find((m) => m.to === to.toLowerCase());
      if (!mail) throw new Error(`no mail to ${to}`);
      return mail;
    },
    openAnotherNode: () => test.openAnotherNode(),
    auth(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('apikey')) headers.set('apikey', keys.anonKey);
      if (init.version !== false && !headers.has('X-Supabase-Api-Version'))
        headers.set('X-Supabase-Api-Version', '2024-01-01');
      if (init.body && !headers.has('Content-Type'))
        headers.set('Content-Type', 'application/json');
      return fetch(`${url}/auth/v1${path}`, { redirect: 'manual', ...init, headers });
    },
    async close() {
      await new Promise<void>((done) => server.server.close(() => done()));
      await test.close();
    },
  };
}

/** Follows an e-mailed link without a browser: the 303's Location. */
export async function followLink(link: string): Promise<URL> {
  const res = await fetch(link, { redirect: 'manual' });
  if (res.status !== 303) throw new Error(`expected 303 from ${link}, got ${res.status}`);
  return new URL(res.headers.get('location') ?? '');
}

/** The parameters of a URL fragment (`#a=1&b=2`). */
export const fragment = (url: URL) => Object.fromEntries(new URLSearchParams(url.hash.slice(1)));

/**
 * Reads a QR code SVG as `qrSvg` draws it (unit squares `Mx yh1v1h-1z` on a white square) with
 * jsQR, an independent decoder: rasterised at 4 pixels a module. Returns the decoded text.
 */
export function readQrSvg(svg: string): string | null {
  const n = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const scale = 4;
  const size = n * scale;
  const rgba = new Uint8ClampedArray(size * size * 4).fill(255);
  for (const [, x, y] of svg.matchAll(/M(\d+) (\d+)h1v1h-1z/g))
    for (let dy = 0; dy < scale; dy++)
      for (let dx = 0; dx < scale; dx++) {
        const at = ((Number(y) * scale + dy) * size + Number(x) * scale + dx) * 4;
        rgba.fill(0, at, at + 3);
      }
  return jsQR(rgba, size, size)?.data ?? null;
}
