/**
 * Sign-up with confirmation, the e-mailed links (implicit and PKCE), POST /verify, password
 * recovery, magic links, profiles, the admin flag, and a token used on the REST gateway.
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../db/test-database';
import {
  ADMIN_EMAIL,
  followLink,
  fragment,
  startAuthTestServer,
  type AuthTestServer,
} from './test-support';

let s: AuthTestServer;
beforeAll(async () => {
  s = await startAuthTestServer({ env: { ADDITIONAL_REDIRECT_URLS: 'http://localhost:5173/**' } });
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(() => s?.close(), DATABASE_HOOK_TIMEOUT_MS);

const otpOf = (text: string) => /code: (\d{6})/.exec(text)?.[1] ?? '';

describe('sign-up with e-mail confirmation', () => {
  const email = 'Listener@Example.test';

  it('returns the user without a session and mails a confirmation link', async () => {
    const sb = s.client();
    const { data, error } = await sb.auth.signUp({
      email,
      password: 'secret-pass',
      options: {
        data: { name: 'Lena Listener' },
        emailRedirectTo: `${s.url}/verify-email/success`,
      },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email: 'listener@example.test',
      aud: 'authenticated',
      role: 'authenticated',
      user_metadata: { name: 'Lena Listener' },
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    expect(data.user?.confirmation_sent_at).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.identities).toHaveLength(1);
    const mail = s.lastMail(email);
    expect(mail.subject).toMatch(/Confirm/);
    expect(mail.links[0]).toMatch(
      new RegExp(`^${s.url}/auth/v1/verify\\?token=[0-9a-f]{56}&type=signup&redirect_to=`),
    );
    const { rows } = await s.db.query<{ name: string; subscription_plan: string }>(
      'select name, subscription_plan from public.profiles where id = $1',
      [data.user?.id],
    );
    expect(rows[0]).toEqual({ name: 'Lena Listener', subscription_plan: 'free' });
  });

  it('refuses the password login until the address is confirmed', async () => {
    const { error } = await s.client().auth.signInWithPassword({ email, password: 'secret-pass' });
    expect(error).toMatchObject({
      status: 400,
      code: 'email_not_confirmed',
      message: 'Email not confirmed',
    });
  });

  it('confirms through the link: 303 to /verify-email/success with the session in the fragment', async () => {
    const target = await followLink(s.lastMail(email).links[0]!);
    expect(`${target.origin}${target.pathname}`).toBe(`${s.url}/verify-email/success`);
    const f = fragment(target);
    expect(f).toMatchObject({ token_type: 'bearer', type: 'signup', expires_in: '3600' });
    const claims = decodeJwt(f.access_token!);
    expect(claims).toMatchObject({
      iss: `${s.url}/auth/v1`,
      aud: 'authenticated',
      role: 'authenticated',
      email: 'listener@example.test',
      aal: 'aal1',
      is_anonymous: false,
    });
    expect(claims.amr).toEqual([{ method: 'otp', timestamp: expect.any(Number) }]);
    expect(Number(f.expires_at)).toBe(claims.exp);
    // The link is single use.
    const again = fragment(await followLink(s.lastMail(email).links[0]!));
    expect(again).toMatchObject({ error: 'access_denied', error_code: 'otp_expired' });
  });

  it('signs in with the password once confirmed', async () => {
    const sb = s.client();
    const { data, error } = await sb.auth.signInWithPassword({ email, password: 'secret-pass' });
    expect(error).toBeNull();
    expect(data.session?.token_type).toBe('bearer');
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(decodeJwt(data.session!.access_token).amr).toEqual([
      { method: 'password', timestamp: expect.any(Number) },
    ]);
  });

  it('answers a sign-up for a confirmed address like a new one (no enumeration, no mail)', async () => {
    const before = s.mailer.list().length;
    const { data, error } = await s.client().auth.signUp({ email, password: 'another-pass' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.identities).toEqual([]);
    expect(data.user?.id).not.toBe((await s.service().auth.admin.listUsers()).data.users[0]?.id);
    expect(s.mailer.list()).toHaveLength(before);
  });

  it('validates input with GoTrue codes, in both error shapes', async () => {
    const sb = s.client();
    const weak = await sb.auth.signUp({ email: 'weak@example.test', password: '12345' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });
    expect(weak.error?.message).toBe('Password should be at least 6 characters.');
    const body = JSON.stringify({ email: 'weak@example.test', password: '123' });
    const versioned = await s.auth('/signup', { method: 'POST', body });
    expect(versioned.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await versioned.json()).toEqual({
      code: 'weak_password',
      message: 'Password should be at least 6 characters.',
      weak_password: { reasons: ['length'] },
    });
    const legacy = await s.auth('/signup', { method: 'POST', body, version: false });
    expect(legacy.headers.get('x-supabase-api-version')).toBeNull();
    expect(await legacy.json()).toMatchObject({ code: 422, error_code: 'weak_password' });
    const bad = await s.auth('/signup', {
      method: 'POST',
      body: JSON.stringify({ email: 'nope', password: 'secret-pass' }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe('email_address_invalid');
    const json = await s.auth('/signup', { method: 'POST', body: '{' });
    expect([json.status, (await json.json()).code]).toEqual([400, 'bad_json']);
  });
});

describe('links, codes and PKCE', () => {
  it('verifies the e-mailed six-digit code with verifyOtp', async () => {
    const sb = s.client();
    await sb.auth.signUp({ email: 'code@example.test', password: 'secret-pass' });
    const code = otpOf(s.lastMail('code@example.test').text);
    const wrong = await sb.auth.verifyOtp({
      email: 'code@example.test',
      token: '000000',
      type: 'email',
    });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const { data, error } = await sb.auth.verifyOtp({
      email: 'code@example.test',
      token: code,
      type: 'email',
    });
    expect(error).toBeNull();
    expect(data.session?.user.email_confirmed_at).toBeTruthy();
  });

  it('runs the PKCE sign-up: ?code= on the redirect, exchanged with the verifier', async () => {
    const sb = s.client('pkce');
    await sb.auth.signUp({
      email: 'pkce@example.test',
      password: 'secret-pass',
      options: { emailRedirectTo: 'http://localhost:5173/verify-email/success' },
    });
    const link = s.lastMail('pkce@example.test').links[0]!;
    expect(new URL(link).searchParams.get('token')).toMatch(/^pkce_/);
    const target = await followLink(link);
    expect(`${target.origin}${target.pathname}`).toBe('http://localhost:5173/verify-email/success');
    const code = target.searchParams.get('code')!;
    const bad = await s.auth('/token?grant_type=pkce', {
      method: 'POST',
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(43) }),
    });
    expect([bad.status, (await bad.json()).code]).toEqual([403, 'bad_code_verifier']);
    const { data, error } = await sb.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.email).toBe('pkce@example.test');
    const reused = await s.auth('/token?grant_type=pkce', {
      method: 'POST',
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(43) }),
    });
    expect([reused.status, (await reused.json()).code]).toEqual([404, 'flow_state_not_found']);
  });

  it('falls back to the site when redirect_to is not allowed, and reports bad links', async () => {
    await s.client().auth.signUp({
      email: 'evil@example.test',
      password: 'secret-pass',
      options: { emailRedirectTo: 'https://evil.example/steal' },
    });
    const link = new URL(s.lastMail('evil@example.test').links[0]!);
    expect(link.searchParams.get('redirect_to')).toBe(s.url);
    const target = await followLink(
      `${s.url}/auth/v1/verify?token=nope&type=signup&redirect_to=${encodeURIComponent(`${s.url}/verify-email/success`)}`,
    );
    expect(fragment(target)).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    });
    const post = await s.auth('/verify', {
      method: 'POST',
      body: JSON.stringify({ type: 'signup', token_hash: 'nope' }),
    });
    expect([post.status, await post.json()]).toEqual([
      403,
      { code: 'otp_expired', message: 'Token has expired or is invalid' },
    ]);
  });
});

describe('password recovery and magic links', () => {
  const email = 'forgetful@example.test';
  beforeAll(async () => {
    await s
      .service()
      .auth.admin.createUser({ email, password: 'old-password', email_confirm: true });
  });

  it('always answers 200 {} and mails only existing accounts', async () => {
    const before = s.mailer.list().length;
    const unknown = await s.auth('/recover', {
      method: 'POST',
      body: JSON.stringify({ email: 'nobody@example.test' }),
    });
    expect([unknown.status, await unknown.json()]).toEqual([200, {}]);
    expect(s.mailer.list()).toHaveLength(before);
    const { error } = await s
      .client()
      .auth.resetPasswordForEmail(email, { redirectTo: `${s.url}/reset-password` });
    expect(error).toBeNull();
    expect(s.lastMail(email).subject).toMatch(/Reset/);
  });

  it('signs in through the link to /reset-password, sets a new password, then logs in with it', async () => {
    const target = await followLink(s.lastMail(email).links[0]!);
    expect(target.pathname).toBe('/reset-password');
    const f = fragment(target);
    expect(f.type).toBe('recovery');
    const sb = s.client();
    await sb.auth.setSession({ access_token: f.access_token!, refresh_token: f.refresh_token! });
    const same = await sb.auth.updateUser({ password: 'old-password' });
    expect(same.error?.code).toBe('same_password');
    expect((await sb.auth.updateUser({ password: 'new-password' })).error).toBeNull();
    const old = await s.client().auth.signInWithPassword({ email, password: 'old-password' });
    expect(old.error?.code).toBe('invalid_credentials');
    const ok = await s.client().auth.signInWithPassword({ email, password: 'new-password' });
    expect(ok.error).toBeNull();
  });

  it('sends magic links (to the site URL without redirect_to) and refuses unknown addresses without create_user', async () => {
    const sb = s.client();
    expect((await sb.auth.signInWithOtp({ email })).error).toBeNull();
    // No redirect_to: the site URL, as GoTrue.
    const target = await followLink(s.lastMail(email).links[0]!);
    expect(`${target.origin}${target.pathname}`).toBe(`${s.url}/`);
    expect(fragment(target).type).toBe('magiclink');
    const { error } = await sb.auth.signInWithOtp({
      email: 'new@example.test',
      options: { shouldCreateUser: false },
    });
    expect(error).toMatchObject({ status: 422, code: 'otp_disabled' });
    // The test server allows one mail a second: two asked at once meet the limit even when a
    // loaded machine took over a second since the first (CI once did), and supabase-js shows it.
    const again = await Promise.all([
      sb.auth.signInWithOtp({ email }),
      sb.auth.signInWithOtp({ email }),
    ]);
    const limited = again.find((r) => r.error)?.error;
    expect(limited).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
  });
});

describe('recovery links go to redirect_to when it is allowed, else to the site URL (GoTrue)', () => {
  const users = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'].map((n) => `${n}@example.test`);
  beforeAll(async () => {
    for (const email of users)
      await s
        .service()
        .auth.admin.createUser({ email, password: 'old-password', email_confirm: true });
  });
  const recover = (email: string, query = '', headers: Record<string, string> = {}) =>
    s.auth(`/recover${query}`, { method: 'POST', headers, body: JSON.stringify({ email }) });
  const linkOf = (email: string) => new URL(s.lastMail(email).links[0]!);
  const landing = (url: URL) => `${url.origin}${url.pathname}`;

  it('supabase-js resetPasswordForEmail(email, { redirectTo }) on the site: the link lands there', async () => {
    const { error } = await s
      .client()
      .auth.resetPasswordForEmail(users[0]!, { redirectTo: `${s.url}/login?next=1` });
    expect(error).toBeNull();
    expect(linkOf(users[0]!).searchParams.get('redirect_to')).toBe(`${s.url}/login?next=1`);
    const landed = await followLink(linkOf(users[0]!).toString());
    expect(landing(landed)).toBe(`${s.url}/login`);
    expect(landed.searchParams.get('next')).toBe('1');
    expect(fragment(landed)).toMatchObject({ type: 'recovery', token_type: 'bearer' });
  });

  it('raw POST /recover?redirect_to=: the allow list and loopback ports are kept, others fall back', async () => {
    const listed = 'http://localhost:5173/reset-password';
    const res = await recover(users[1]!, `?redirect_to=${encodeURIComponent(listed)}`);
    expect([res.status, await res.json()]).toEqual([200, {}]);
    expect(landing(await followLink(linkOf(users[1]!).toString()))).toBe(listed);

    const otherPort = `${s.url.replace(/:\d+$/, ':3999')}/reset-password`;
    await recover(users[2]!, `?redirect_to=${encodeURIComponent(otherPort)}`);
    expect(linkOf(users[2]!).searchParams.get('redirect_to')).toBe(otherPort);

    await recover(users[3]!, `?redirect_to=${encodeURIComponent('https://evil.example/reset')}`);
    expect(linkOf(users[3]!).searchParams.get('redirect_to')).toBe(s.url);
    const landed = await followLink(linkOf(users[3]!).toString());
    expect(landing(landed)).toBe(`${s.url}/`);
    expect(fragment(landed).type).toBe('recovery');
  });

  it('takes a redirect_to header, then an allowed Referer, before the site URL', async () => {
    await recover(users[4]!, '', { redirect_to: `${s.url}/from-header` });
    expect(linkOf(users[4]!).searchParams.get('redirect_to')).toBe(`${s.url}/from-header`);
    await new Promise((done) => setTimeout(done, 1100)); // one mail a second per address here
    await recover(users[4]!, '', { Referer: `${s.url}/forgot-password` });
    expect(linkOf(users[4]!).searchParams.get('redirect_to')).toBe(`${s.url}/forgot-password`);
  });

  it('GET /verify checks redirect_to again: an edited link lands on the site URL', async () => {
    await s
      .client()
      .auth.resetPasswordForEmail(users[5]!, { redirectTo: `${s.url}/reset-password` });
    const link = linkOf(users[5]!);
    link.searchParams.set('redirect_to', 'https://evil.example/steal');
    const landed = await followLink(link.toString());
    expect(landing(landed)).toBe(`${s.url}/`);
    expect(fragment(landed).type).toBe('recovery');
  });
});

describe('admins, profiles and the REST gateway', () => {
  it('puts role admin in app_metadata for an ADMIN_EMAILS user, and only for them', async () => {
    await s
      .service()
      .auth.admin.createUser({ email: ADMIN_EMAIL, password: 'admin-pass', email_confirm: true });
    const admin = await s
      .client()
      .auth.signInWithPassword({ email: ADMIN_EMAIL, password: 'admin-pass' });
    expect(admin.data.user?.app_metadata.role).toBe('admin');
    expect(decodeJwt(admin.data.session!.access_token).app_metadata).toMatchObject({
      role: 'admin',
    });
    const other = await s
      .client()
      .auth.signInWithPassword({ email: 'forgetful@example.test', password: 'new-password' });
    expect(other.data.user?.app_metadata.role).toBeUndefined();
  });

  it('creates a missing profile on login, and the token reads RLS-protected rows on /rest/v1', async () => {
    const sb = s.client();
    const { data } = await sb.auth.signInWithPassword({
      email: 'forgetful@example.test',
      password: 'new-password',
    });
    const id = data.user!.id;
    await s.db.query('delete from public.profiles where id = $1', [id]);
    await s
      .client()
      .auth.signInWithPassword({ email: 'forgetful@example.test', password: 'new-password' });
    const mine = await sb.from('profiles_private').select('id, email, subscription_plan');
    expect(mine.error).toBeNull();
    expect(mine.data).toEqual([{ id, email: 'forgetful@example.test', subscription_plan: 'free' }]);
    const anon = await s.client().from('profiles_private').select('id');
    expect(anon.data ?? []).toEqual([]);
  });
});
