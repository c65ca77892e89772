/**
 * "Continue with Google" through the development identity provider (PKCE and implicit), identity
 * linking, and TOTP multi-factor authentication, driven by supabase-js.
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../db/test-database';
import { readQrSvg, startAuthTestServer, fragment, type AuthTestServer } from './test-support';
import { totp } from './totp';

let s: AuthTestServer;
beforeAll(async () => {
  s = await startAuthTestServer();
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(() => s?.close(), DATABASE_HOOK_TIMEOUT_MS);

/** Plays the browser: /authorize → dev IdP consent page → form post → /callback → app. */
async function signInThroughDevIdp(url: string, who: { name: string; email: string }) {
  let consentUrl = new URL(url);
  if (consentUrl.pathname === '/auth/v1/authorize') {
    const start = await fetch(url, { redirect: 'manual' });
    expect(start.status).toBe(302);
    consentUrl = new URL(start.headers.get('location')!);
  }
  expect(consentUrl.pathname).toBe('/auth/v1/dev-idp/authorize');
  expect(consentUrl.searchParams.get('code_challenge_method')).toBe('S256');
  const page = await fetch(consentUrl);
  const html = await page.text();
  expect(html).toContain('Development sign-in — not Google');
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g))
    form.set(
      m[1]!,
      m[2]!.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'"),
    );
  form.set('name', who.name);
  form.set('email', who.email);
  form.set('action', 'allow');
  const consent = await fetch(consentUrl, { method: 'POST', body: form, redirect: 'manual' });
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.get('location')!);
  expect(callback.pathname).toBe('/auth/v1/callback');
  const done = await fetch(callback, { redirect: 'manual' });
  expect(done.status).toBe(303);
  return new URL(done.headers.get('location')!);
}

describe('Google sign-in through the development identity provider', () => {
  it('runs OIDC with PKCE and lands on redirect_to with ?code=', async () => {
    const sb = s.client('pkce');
    const { data } = await sb.auth.signInWithOAuth({
      provider: 'google',
      options: {
        redirectTo: `${s.url}/home`,
        skipBrowserRedirect: true,
        queryParams: { prompt: 'select_account' },
      },
    });
    const landed = await signInThroughDevIdp(data.url!, {
      name: 'Gus Google',
      email: 'gus@example.test',
    });
    expect(`${landed.origin}${landed.pathname}`).toBe(`${s.url}/home`);
    const { data: session, error } = await sb.auth.exchangeCodeForSession(
      landed.searchParams.get('code')!,
    );
    expect(error).toBeNull();
    expect(session.user).toMatchObject({
      email: 'gus@example.test',
      app_metadata: { provider: 'google', providers: ['google'] },
      user_metadata: { name: 'Gus Google', email_verified: true },
    });
    expect(session.user?.email_confirmed_at).toBeTruthy();
    expect(session.user?.identities?.[0]?.provider).toBe('google');
    expect(decodeJwt(session.session!.access_token).amr).toEqual([
      { method: 'oauth', timestamp: expect.any(Number) },
    ]);
    const { rows } = await s.db.query('select name from public.profiles where id = $1', [
      session.user!.id,
    ]);
    expect(rows).toEqual([{ name: 'Gus Google' }]);
  });

  it('uses the same account next time, and the implicit flow puts the session in the fragment', async () => {
    const sb = s.client();
    const { data } = await sb.auth.signInWithOAuth({
      provider: 'google',
      options: { skipBrowserRedirect: true },
    });
    const landed = await signInThroughDevIdp(data.url!, {
      name: 'Gus Google',
      email: 'gus@example.test',
    });
    // No redirect_to: the site URL, as GoTrue.
    expect(`${landed.origin}${landed.pathname}`).toBe(`${s.url}/`);
    const f = fragment(landed);
    expect(f.token_type).toBe('bearer');
    const { data: user } = await sb.auth.getUser(f.access_token);
    expect(user.user?.email).toBe('gus@example.test');
    expect(user.user?.identities).toHaveLength(1);
  });

  it('refuses a forged state and reports provider errors on redirect_to', async () => {
    const bad = await fetch(`${s.url}/auth/v1/callback?code=x&state=forged`, {
      redirect: 'manual',
    });
    expect(bad.status).toBe(400);
    const { data } = await s
      .client()
      .auth.signInWithOAuth({ provider: 'google', options: { skipBrowserRedirect: true } });
    const consent = new URL(
      (await fetch(data.url!, { redirect: 'manual' })).headers.get('location')!,
    );
    const form = new URLSearchParams(consent.searchParams);
    form.set('action', 'cancel');
    const cancel = await fetch(consent, { method: 'POST', body: form, redirect: 'manual' });
    const back = await fetch(cancel.headers.get('location')!, { redirect: 'manual' });
    expect(fragment(new URL(back.headers.get('location')!))).toMatchObject({
      error: 'access_denied',
    });
    const unknown = await s.auth('/authorize?provider=github', { version: true });
    expect([unknown.status, (await unknown.json()).code]).toEqual([400, 'validation_failed']);
  });

  it('never attaches a development identity to an existing account by e-mail', async () => {
    await s.service().auth.admin.createUser({
      email: 'taken@example.test',
      password: 'secret-pass',
      email_confirm: true,
    });
    const { data } = await s
      .client()
      .auth.signInWithOAuth({ provider: 'google', options: { skipBrowserRedirect: true } });
    const landed = await signInThroughDevIdp(data.url!, {
      name: 'Mallory',
      email: 'taken@example.test',
    });
    expect(fragment(landed)).toMatchObject({ error_code: 'email_exists' });
  });

  it('links Google to an e-mail account and unlinks it again', async () => {
    await s.service().auth.admin.createUser({
      email: 'lin@example.test',
      password: 'secret-pass',
      email_confirm: true,
    });
    const sb = s.client();
    await sb.auth.signInWithPassword({ email: 'lin@example.test', password: 'secret-pass' });
    const { data, error } = await sb.auth.linkIdentity({
      provider: 'google',
      options: { skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    await signInThroughDevIdp(data.url!, { name: 'Lin', email: 'lin.google@example.test' });
    const { data: identities } = await sb.auth.getUserIdentities();
    expect(identities?.identities.map((i) => i.provider).sort()).toEqual(['email', 'google']);
    const google = identities!.identities.find((i) => i.provider === 'google')!;
    expect((await sb.auth.unlinkIdentity(google)).error).toBeNull();
    const email = (await sb.auth.getUserIdentities()).data!.identities[0]!;
    const last = await sb.auth.unlinkIdentity(email);
    expect(last.error).toMatchObject({ status: 422, code: 'single_identity_not_deletable' });
  });
});

describe('TOTP multi-factor authentication', () => {
  it('enrolls, challenges and verifies to aal2, then unenrolls', async () => {
    await s.service().auth.admin.createUser({
      email: 'mfa@example.test',
      password: 'secret-pass',
      email_confirm: true,
    });
    const sb = s.client();
    await sb.auth.signInWithPassword({ email: 'mfa@example.test', password: 'secret-pass' });
    const { data: factor, error } = await sb.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Phone',
    });
    expect(error).toBeNull();
    if (factor?.type !== 'totp') throw new Error('expected a TOTP factor');
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(factor.totp.uri).toMatch(/^otpauth:\/\/totp\/Soundloft:mfa%40example\.test\?secret=/);
    expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg /);
    const svg = factor.totp.qr_code.replace('data:image/svg+xml;utf-8,', '');
    expect(readQrSvg(svg)).toBe(factor.totp.uri);
    const dup = await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(dup.error?.code).toBe('mfa_factor_name_conflict');

    const { data: challenge } = await sb.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge?.expires_at).toBeGreaterThan(Date.now() / 1000);
    const wrong = await sb.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge!.id,
      code: '000000' === totp(factor.totp.secret) ? '111111' : '000000',
    });
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    const ok = await sb.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge!.id,
      code: totp(factor.totp.secret),
    });
    expect(ok.error).toBeNull();
    const claims = decodeJwt(ok.data!.access_token);
    expect(claims.aal).toBe('aal2');
    expect((claims.amr as { method: string }[]).map((a) => a.method)).toEqual(['totp', 'password']);
    const { data: level } = await sb.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });

    const fresh = s.client();
    await fresh.auth.signInWithPassword({ email: 'mfa@example.test', password: 'secret-pass' });
    expect((await fresh.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal2',
    });
    const refused = await fresh.auth.mfa.unenroll({ factorId: factor.id });
    expect(refused.error?.code).toBe('insufficient_aal');
    expect((await sb.auth.mfa.unenroll({ factorId: factor.id })).error).toBeNull();
  });
});
