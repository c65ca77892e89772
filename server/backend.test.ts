import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from './backend';
import { DATABASE_HOOK_TIMEOUT_MS } from './db/test-database';
import { createApp } from './http/app';

let backend: Backend;
let app: ReturnType<typeof createApp>;
const dist = mkdtempSync(join(tmpdir(), 'soundloft-empty-dist-'));

beforeAll(async () => {
  backend = await startBackend(
    { DATA_DIR: 'memory', ADMIN_EMAILS: 'boss@example.com', SEED: 'none' },
    { publicUrl: 'http://localhost:9999' },
  );
  app = createApp({
    distDir: dist,
    mounts: backend.mounts,
    devConfig: backend.devConfig,
    appConfig: backend.appConfig,
  });
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(async () => {
  await backend?.close();
  rmSync(dist, { recursive: true, force: true });
}, DATABASE_HOOK_TIMEOUT_MS);

describe('the composed backend (npm start)', () => {
  it('tells the app where its backend is in development', async () => {
    const res = await app.request('/_dev/config');
    expect(await res.json()).toEqual({
      url: 'http://localhost:9999',
      anonKey: backend.keys.anonKey,
    });
  });

  it('serves the app its configuration at /_app/config too (every mode)', async () => {
    const res = await app.request('/_app/config');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      url: 'http://localhost:9999',
      anonKey: backend.keys.anonKey,
    });
  });

  it('answers /rest/v1 on the migrated database with the anon key', async () => {
    const res = await app.request('/rest/v1/plans?select=id&order=price_eur.asc', {
      headers: { apikey: backend.keys.anonKey },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ id: 'free' }, { id: 'basic' }, { id: 'premium' }]);
  });

  it('refuses a token signed with another secret', async () => {
    const forged = backend.keys.anonKey.replace(/\.[^.]+$/, '.c2lnbmF0dXJl');
    const res = await app.request('/rest/v1/plans', {
      headers: { apikey: forged, authorization: `Bearer ${forged}` },
    });
    expect(res.status).toBe(401);
  });

  it('mounts /storage/v1 and /functions/v1 on the same origin', async () => {
    const missing = await app.request('/storage/v1/object/public/covers/nobody/nothing.png');
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ statusCode: '404' });
    const fn = await app.request('/functions/v1/get-recommendations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(fn.status).toBe(401);
  });

  it('serves the payment sandbox without STRIPE_SECRET_KEY (docs/payments.md)', async () => {
    const sandbox = backend.stripeSandbox;
    expect(sandbox).not.toBeNull();
    const res = await app.request('/v1/prices?lookup_keys[0]=soundloft_basic_monthly', {
      headers: { Authorization: `Bearer ${sandbox?.keys.secretKey ?? ''}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { unit_amount: number; currency: string }[] };
    expect(body.data).toMatchObject([{ unit_amount: 499, currency: 'eur' }]);
    const refused = await app.request('/v1/prices', { headers: { Authorization: 'Bearer sk_x' } });
    expect(refused.status).toBe(401);
  });

  it('syncs ADMIN_EMAILS into the database', async () => {
    const { rows } = await backend.db.query<{ email: string }>(
      'select email from public.admin_emails',
    );
    expect(rows.map((r) => r.email)).toEqual(['boss@example.com']);
  });

  it(
    'has no dev config in production, and no sandbox with STRIPE_SECRET_KEY',
    async () => {
      const prod = await startBackend(
        { DATA_DIR: 'memory', NODE_ENV: 'production', SEED: 'none', STRIPE_SECRET_KEY: 'sk_x' },
        { publicUrl: 'x' },
      );
      try {
        expect(prod.devConfig).toBeNull();
        expect(prod.stripeSandbox).toBeNull();
        expect(prod.mounts.map((m) => m.path)).not.toContain('/v1');
      } finally {
        await prod.close();
      }
    },
    DATABASE_HOOK_TIMEOUT_MS,
  );
});
