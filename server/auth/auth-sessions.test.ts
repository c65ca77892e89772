/**
 * Password grant and its rate limit, refresh-token rotation and reuse detection, GET/PUT /user,
 * logout scopes, and the authentication errors of /user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../db/test-database';
import { signHs256 } from '../keys';
import {
  TEST_SECRET,
  followLink,
  fragment,
  startAuthTestServer,
  type AuthTestServer,
} from './test-support';

let s: AuthTestServer;
beforeAll(async () => {
  s = await startAuthTestServer({
    env: { TRUST_PROXY: 'true' },
    overrides: { rateLimit: { perEmail: 3, perIp: 5, windowMs: 60_000 } },
  });
  for (const email of ['ann@example.test', 'bob@example.test', 'cat@example.test'])
    await s
      .service()
      .auth.admin.createUser({ email, password: 'right-password', email_confirm: true });
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(() => s?.close(), DATABASE_HOOK_TIMEOUT_MS);

const password = (email: string, pw: string, ip = '10.0.0.1') =>
  s.auth('/token?grant_type=password', {
    method: 'POST',
    headers: { 'X-Forwarded-For': ip },
    body: JSON.stringify({ email, password: pw }),
  });

const refresh = (token: string) =>
  s.auth('/token?grant_type=refresh_token', {
    method: 'POST',
    body: JSON.stringify({ refresh_token: token }),
  });

describe('grant_type=password', () => {
  it('answers GoTrue session JSON', async () => {
    const res = await password('ann@example.test', 'right-password');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      token_type: 'bearer',
      expires_in: 3600,
      user: { email: 'ann@example.test' },
    });
    expect(body.expires_at).toBeGreaterThan(Date.now() / 1000);
    expect(body.refresh_token).toMatch(/^[\w-]{20,}$/);
  });

  it('says invalid_credentials for a wrong password and an unknown user alike', async () => {
    for (const [email, pw] of [
      ['ann@example.test', 'wrong-password'],
      ['nobody@example.test', 'whatever'],
    ] as const) {
      const res = await password(email, pw, '10.0.0.2');
      expect([res.status, await res.json()]).toEqual([
        400,
        { code: 'invalid_credentials', message: 'Invalid login credentials' },
      ]);
    }
    const legacy = await s.auth('/token?grant_type=password', {
      method: 'POST',
      version: false,
      body: JSON.stringify({ email: 'ann@example.test', password: 'nope' }),
    });
    expect(await legacy.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
  });

  it('limits wrong passwords per address and per IP with 429 over_request_rate_limit', async () => {
    for (let i = 0; i < 3; i++)
      expect((await password('bob@example.test', 'bad', '10.1.0.1')).status).toBe(400);
    const limited = await password('bob@example.test', 'right-password', '10.1.0.2');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await limited.json()).code).toBe('over_request_rate_limit');
    // Per IP: five failures from one address block it for every account.
    for (let i = 0; i < 5; i++) await password(`x${i}@example.test`, 'bad', '10.2.0.1');
    expect((await password('cat@example.test', 'right-password', '10.2.0.1')).status).toBe(429);
    expect((await password('cat@example.test', 'right-password', '10.2.0.9')).status).toBe(200);
  });

  it('rejects unknown grants with the OAuth error shape', async () => {
    const res = await s.auth('/token?grant_type=magic', { method: 'POST', body: '{}' });
    expect([res.status, await res.json()]).toEqual([400, { error: 'unsupported_grant_type' }]);
    const missing = await refresh('');
    expect(await missing.json()).toEqual({
      error: 'invalid_request',
      error_description: 'refresh_token required',
    });
  });
});

describe('refresh tokens', () => {
  it('rotates, and a reused token inside the reuse interval returns the active child', async () => {
    const first = await (await password('ann@example.test', 'right-password')).json();
    const second = await (await refresh(first.refresh_token)).json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.user.id).toBe(first.user.id);
    // The client lost the answer and retries with the parent: same active token back.
    const retry = await (await refresh(first.refresh_token)).json();
    expect(retry.refresh_token).toBe(second.refresh_token);
    const unknown = await refresh('not-a-token');
    expect([unknown.status, (await unknown.json()).code]).toEqual([400, 'refresh_token_not_found']);
  });

  it('past the reuse interval, reusing a revoked token revokes the whole session family', async () => {
    const t0 = await (await password('ann@example.test', 'right-password')).json();
    const t1 = await (await refresh(t0.refresh_token)).json();
    const t2 = await (await refresh(t1.refresh_token)).json();
    await s.db.query(
      `update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1`,
      [t0.refresh_token],
    );
    const reuse = await refresh(t0.refresh_token);
    expect([reuse.status, await reuse.json()]).toEqual([
      400,
      { code: 'refresh_token_already_used', message: 'Invalid Refresh Token: Already Used' },
    ]);
    // The family is revoked and the session ended: the newest token and its JWT are dead too.
    const stolen = await refresh(t2.refresh_token);
    expect([stolen.status, (await stolen.json()).code]).toEqual([400, 'session_expired']);
    const user = await s.auth('/user', { headers: { Authorization: `Bearer ${t2.access_token}` } });
    expect([user.status, (await user.json()).code]).toEqual([403, 'session_not_found']);
  });

  it('keeps the country of the address seen at sign-in and at the last refresh, nothing finer', async () => {
    const place = async (token: string) => {
      const sessionId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
        .session_id as string;
      const { rows } = await s.db.query<{ country: string | null; ip: string }>(
        'select country, host(ip) as ip from auth.sessions where id = $1',
        [sessionId],
      );
      return rows[0];
    };
    // RIPE NCC's own network (Amsterdam), then Google's (United States), then a private one.
    const signIn = await (
      await password('ann@example.test', 'right-password', '193.0.6.139')
    ).json();
    expect(await place(signIn.access_token)).toEqual({ country: 'NL', ip: '193.0.6.139' });
    const moved = await s.auth('/token?grant_type=refresh_token', {
      method: 'POST',
      headers: { 'X-Forwarded-For': '2001:4860:4860::8888' },
      body: JSON.stringify({ refresh_token: signIn.refresh_token }),
    });
    const movedBody = await moved.json();
    expect(await place(movedBody.access_token)).toEqual({
      country: 'US',
      ip: '2001:4860:4860::8888',
    });
    const home = await s.auth('/token?grant_type=refresh_token', {
      method: 'POST',
      headers: { 'X-Forwarded-For': '192.168.1.20' },
      body: JSON.stringify({ refresh_token: movedBody.refresh_token }),
    });
    expect(await place((await home.json()).access_token)).toEqual({
      country: null,
      ip: '192.168.1.20',
    });
  });

  it('works through supabase-js refreshSession, with the same session_id', async () => {
    const sb = s.client();
    const { data } = await sb.auth.signInWithPassword({
      email: 'ann@example.test',
      password: 'right-password',
    });
    const { data: refreshed, error } = await sb.auth.refreshSession();
    expect(error).toBeNull();
    const claims = (t: string) => JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString());
    expect(claims(refreshed.session!.access_token).session_id).toBe(
      claims(data.session!.access_token).session_id,
    );
  });
});

describe('/user and /logout', () => {
  it('GET /user needs a valid token of an existing session', async () => {
    expect([(await s.auth('/user')).status, (await (await s.auth('/user')).json()).code]).toEqual([
      401,
      'no_authorization',
    ]);
    const garbage = await s.auth('/user', { headers: { Authorization: 'Bearer abc.def.ghi' } });
    expect([garbage.status, (await garbage.json()).code]).toEqual([403, 'bad_jwt']);
    const expired = signHs256(
      { sub: 'x', role: 'authenticated', exp: Math.floor(Date.now() / 1000) - 120 },
      TEST_SECRET,
    );
    expect(
      (await s.auth('/user', { headers: { Authorization: `Bearer ${expired}` } })).status,
    ).toBe(403);
    const sb = s.client();
    await sb.auth.signInWithPassword({ email: 'ann@example.test', password: 'right-password' });
    const { data } = await sb.auth.getUser();
    expect(data.user?.email).toBe('ann@example.test');
  });

  it('PUT /user merges metadata and changes the address once both addresses confirm', async () => {
    const sb = s.client();
    await sb.auth.signInWithPassword({ email: 'cat@example.test', password: 'right-password' });
    const meta = await sb.auth.updateUser({ data: { name: 'Cat', theme: 'dark' } });
    expect(meta.data.user?.user_metadata).toMatchObject({ name: 'Cat', theme: 'dark' });
    const taken = await sb.auth.updateUser({ email: 'ann@example.test' });
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });
    const { data } = await sb.auth.updateUser({ email: 'kitty@example.test' });
    expect(data.user).toMatchObject({ email: 'cat@example.test', new_email: 'kitty@example.test' });
    const mail = s.lastMail('kitty@example.test');
    expect(mail.subject).toMatch(/new Soundloft email/);
    // docs/account.md: the secure change (GoTrue's default) needs the current address too.
    const first = await followLink(mail.links[0]!);
    expect(fragment(first).message).toBe(
      'Confirmation link accepted. Please proceed to confirm link sent to the other email',
    );
    const stillOld = await s
      .client()
      .auth.signInWithPassword({ email: 'cat@example.test', password: 'right-password' });
    expect(stillOld.error).toBeNull();
    await followLink(s.lastMail('cat@example.test').links[0]!);
    expect(s.lastMail('cat@example.test').subject).toBe('Your Soundloft email address was changed');
    const login = await s
      .client()
      .auth.signInWithPassword({ email: 'kitty@example.test', password: 'right-password' });
    expect(login.error).toBeNull();
  });

  it('GET /reauthenticate mails a code that PUT /user accepts once as nonce', async () => {
    const sb = s.client();
    await sb.auth.signInWithPassword({ email: 'ann@example.test', password: 'right-password' });
    expect((await sb.auth.reauthenticate()).error).toBeNull();
    const mail = s.lastMail('ann@example.test');
    expect(mail.links).toEqual([]);
    const nonce = /code: (\d{6})/.exec(mail.text)![1]!;
    const wrong = await sb.auth.updateUser({
      data: { x: 1 },
      nonce: '000000' === nonce ? '111111' : '000000',
    });
    expect(wrong.error?.code).toBe('reauthentication_not_valid');
    expect((await sb.auth.updateUser({ data: { x: 1 }, nonce })).error).toBeNull();
    expect((await sb.auth.updateUser({ data: { x: 2 }, nonce })).error?.code).toBe(
      'reauthentication_not_valid',
    );
  });

  it('logs out locally, others, or globally (204), and the session is gone', async () => {
    const a = s.client();
    const b = s.client();
    const c = s.client();
    for (const sb of [a, b, c])
      await sb.auth.signInWithPassword({ email: 'ann@example.test', password: 'right-password' });
    const tokenOf = async (sb: typeof a) => (await sb.auth.getSession()).data.session!.access_token;
    const bToken = await tokenOf(b);
    const cToken = await tokenOf(c);
    expect((await a.auth.signOut({ scope: 'others' })).error).toBeNull();
    const gone = await s.auth('/user', { headers: { Authorization: `Bearer ${bToken}` } });
    expect([gone.status, (await gone.json()).code]).toEqual([403, 'session_not_found']);
    expect((await b.auth.getUser()).error?.name).toBe('AuthSessionMissingError');
    const bad = await s.auth('/logout?scope=everything', {
      method: 'POST',
      headers: { Authorization: `Bearer ${await tokenOf(a)}` },
    });
    expect([bad.status, (await bad.json()).code]).toEqual([400, 'validation_failed']);
    const local = await s.auth('/logout?scope=local', {
      method: 'POST',
      headers: { Authorization: `Bearer ${await tokenOf(a)}` },
    });
    expect(local.status).toBe(204);
    expect((await s.auth('/user', { headers: { Authorization: `Bearer ${cToken}` } })).status).toBe(
      403,
    );
    const d = s.client();
    const e = s.client();
    for (const sb of [d, e])
      await sb.auth.signInWithPassword({ email: 'ann@example.test', password: 'right-password' });
    const eToken = await tokenOf(e);
    expect((await d.auth.signOut()).error).toBeNull(); // scope global by default
    expect((await s.auth('/user', { headers: { Authorization: `Bearer ${eToken}` } })).status).toBe(
      403,
    );
    expect((await d.auth.getSession()).data.session).toBeNull();
  });
});
