import { fileURLToPath } from 'node:url';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../db/test-database';
import type { TestUser } from '../db/test-factories';
import { signHs256 } from '../keys';
import { startFunctionsHarness, type FunctionsHarness } from './test-support';

let h: FunctionsHarness;
let user: TestUser;
beforeAll(async () => {
  h = await startFunctionsHarness({
    functionsDir: fileURLToPath(new URL('./fixtures', import.meta.url)),
  });
  user = await h.newUser();
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(async () => h?.close(), DATABASE_HOOK_TIMEOUT_MS);

describe('/functions/v1', () => {
  it('runs a function with the caller JWT and gives it supabase-js on this server', async () => {
    const { data, error } = await h.client(user).functions.invoke('whoami', { body: {} });
    expect(error).toBeNull();
    expect(data).toEqual({ user: user.id, plans: 3, error: null });
    const anon = await h.client().functions.invoke('whoami', { body: {} });
    expect(anon.data).toMatchObject({ user: null, plans: 3 });
  });

  it('refuses requests without a JWT or with a bad one, unless the function opted out', async () => {
    const missing = await h.invokeRaw('whoami', { method: 'POST' });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ message: 'Missing authorization header' });
    const forged = signHs256({ role: 'service_role' }, 'another-secret-of-at-least-32-characters');
    const bad = await h.invokeRaw('whoami', { headers: { Authorization: `Bearer ${forged}` } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ message: 'Invalid JWT' });
    const open = await h.invokeRaw('echo/sub/path?x=1', { method: 'POST', body: 'hi' });
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({
      method: 'POST',
      path: '/functions/v1/echo/sub/path',
      authorization: false,
      body: 'hi',
    });
  });

  it('surfaces errors as FunctionsHttpError whose context is the Response with {error}', async () => {
    const { data, error } = await h.client(user).functions.invoke('teapot', { body: {} });
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const context = (error as FunctionsHttpError).context as Response;
    expect(context.status).toBe(418);
    expect(await context.json()).toEqual({ error: 'short and stout' });
  });

  it('answers a thrown exception with 500 {error}, unknown names with 404', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const boom = await h.client(user).functions.invoke('boom', { body: {} });
    expect(((boom.error as FunctionsHttpError).context as Response).status).toBe(500);
    expect(await ((boom.error as FunctionsHttpError).context as Response).json()).toEqual({
      error: 'Internal Server Error',
    });
    spy.mockRestore();
    for (const name of ['nope', '_shared', '..', 'fixtures%2Fecho']) {
      const res = await h.invokeRaw(name, {
        headers: { Authorization: `Bearer ${h.keys.anonKey}` },
      });
      expect(res.status, name).toBe(404);
    }
  });

  it('answers CORS preflight without a JWT, and adds CORS headers to responses', async () => {
    const res = await h.invokeRaw('whoami', {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, x-client-info, apikey',
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/x-client-info/);
    const ok = await h.invokeRaw('echo', { method: 'GET' });
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
  });
});
