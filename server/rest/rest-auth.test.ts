import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signHs256 } from '../keys/keys';
import { startHarness, type RestHarness } from './test-support';

let h: RestHarness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

async function call(headers: Record<string, string>) {
  const res = await fetch(`${h.url}/rest/v1/fx_bands?select=id&limit=1`, { headers });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
    res,
  };
}

describe('JWT verification on every request', () => {
  it('accepts the anon key as apikey alone, as Bearer, and no key at all as anon', async () => {
    expect((await call({ apikey: h.keys.anonKey })).status).toBe(200);
    expect((await call({ Authorization: `Bearer ${h.keys.anonKey}` })).status).toBe(200);
    expect((await call({})).status).toBe(200);
  });

  it('rejects a wrong signature, an expired token, alg none and garbage with 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forged = signHs256(
      { role: 'service_role', exp: now + 60 },
      'another-secret-of-at-least-32-characters!!',
    );
    const expired = signHs256(
      { role: 'authenticated', sub: 'x', exp: now - 3600 },
      h.keys.jwtSecret,
    );
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ role: 'service_role' })}.`;
    const hs512 = `${b64({ alg: 'HS512', typ: 'JWT' })}.${b64({ role: 'service_role' })}.${'a'.repeat(86)}`;
    for (const [token, code] of [
      [forged, 'PGRST301'],
      [expired, 'PGRST303'],
      [none, 'PGRST301'],
      [hs512, 'PGRST301'],
      ['not-a-jwt', 'PGRST301'],
    ] as const) {
      const r = await call({ apikey: h.keys.anonKey, Authorization: `Bearer ${token}` });
      expect(r.status, token).toBe(401);
      expect(r.body, token).toMatchObject({ code, details: null, hint: null });
      expect(r.res.headers.get('www-authenticate')).toContain('invalid_token');
    }
    const badApikey = await call({ apikey: forged });
    expect(badApikey.status).toBe(401);
  });

  it('refuses roles the API may not switch to (403 42501)', async () => {
    const token = signHs256(
      { role: 'postgres', exp: Math.floor(Date.now() / 1000) + 60 },
      h.keys.jwtSecret,
    );
    const r = await call({ Authorization: `Bearer ${token}` });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: '42501' });
  });

  it('service_role bypasses RLS, anon does not', async () => {
    await h.db.query(
      `insert into public.fx_notes (owner, body) values (gen_random_uuid(), 'private')`,
    );
    const anon = await fetch(`${h.url}/rest/v1/fx_notes?select=body`, {
      headers: { apikey: h.keys.anonKey },
    });
    expect(await anon.json()).toEqual([]);
    const svc = await fetch(`${h.url}/rest/v1/fx_notes?select=body`, {
      headers: { apikey: h.keys.serviceRoleKey, Authorization: `Bearer ${h.keys.serviceRoleKey}` },
    });
    expect(await svc.json()).toEqual([{ body: 'private' }]);
  });

  it('answers CORS preflights and only serves the public schema', async () => {
    const pre = await fetch(`${h.url}/rest/v1/fx_bands`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://x', 'Access-Control-Request-Method': 'GET' },
    });
    expect(pre.status).toBe(200);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    const other = await call({ 'Accept-Profile': 'auth' });
    expect(other.status).toBe(406);
    expect(other.body).toMatchObject({ code: 'PGRST106' });
  });
});
