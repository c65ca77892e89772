/**
 * Account changes through supabase-js (docs/account.md): the secure e-mail change (a link to each
 * address, either order, the six-digit codes, the old address told) and the proof a password
 * change needs (current password, reauthentication nonce, or a fresh e-mailed-link session).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../db/test-database';
import { SINGLE_CONFIRMATION_ACCEPTED } from './verify';
import { totp } from './totp';
import { followLink, fragment, startAuthTestServer, type AuthTestServer } from './test-support';

let s: AuthTestServer;
beforeAll(async () => {
  s = await startAuthTestServer({
    env: { TRUST_PROXY: 'true' },
    overrides: { rateLimit: { perEmail: 3, perIp: 50, windowMs: 60_000 }, mailMinInterval: 1 },
  });
  for (const email of ['dan@example.test', 'eve@example.test', 'fay@example.test'])
    await s
      .service()
      .auth.admin.createUser({ email, password: 'right-password', email_confirm: true });
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(() => s?.close(), DATABASE_HOOK_TIMEOUT_MS);

async function signedIn(email: string, password = 'right-password') {
  const sb = s.client();
  const { error } = await sb.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return sb;
}

const canSignIn = async (email: string, password = 'right-password') =>
  (await s.client().auth.signInWithPassword({ email, password })).error === null;

describe('secure e-mail change', () => {
  it('mails both addresses; the current link first, then the new one, changes it', async () => {
    const sb = await signedIn('dan@example.test');
    const { data, error } = await sb.auth.updateUser(
      { email: 'dan.new@example.test' },
      { emailRedirectTo: `${s.url}/settings` },
    );
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email: 'dan@example.test',
      new_email: 'dan.new@example.test',
    });
    const toOld = s.lastMail('dan@example.test');
    const toNew = s.lastMail('dan.new@example.test');
    expect(toOld.subject).toBe('Confirm the change of your Soundloft email address');
    expect(toOld.text).toContain('dan.new@example.test');
    expect(toNew.subject).toBe('Confirm your new Soundloft email address');
    expect(toOld.links[0]).not.toBe(toNew.links[0]);

    const first = await followLink(toOld.links[0]!);
    expect(first.pathname).toBe('/settings');
    expect(fragment(first)).toEqual({ message: SINGLE_CONFIRMATION_ACCEPTED });
    expect(fragment(first).access_token).toBeUndefined();
    // One confirmation changes nothing; the same link again is spent.
    expect(await canSignIn('dan@example.test')).toBe(true);
    expect(fragment(await followLink(toOld.links[0]!)).error_code).toBe('otp_expired');

    const second = await followLink(toNew.links[0]!);
    const f = fragment(second);
    expect(f.type).toBe('email_change');
    expect(f.access_token).toBeTruthy();
    expect(await canSignIn('dan.new@example.test')).toBe(true);
    expect(await canSignIn('dan@example.test')).toBe(false);
    const notice = s.lastMail('dan@example.test');
    expect(notice.subject).toBe('Your Soundloft email address was changed');
    expect(notice.links).toEqual([]);
    expect(notice.text).toContain('dan.new@example.test');
    const { data: user } = await (await signedIn('dan.new@example.test')).auth.getUser();
    expect(user.user?.new_email).toBeUndefined();
    expect(user.user?.identities?.[0]?.identity_data?.email).toBe('dan.new@example.test');
  });

  it('accepts the six-digit codes with verifyOtp, the new address first', async () => {
    const sb = await signedIn('eve@example.test');
    expect((await sb.auth.updateUser({ email: 'eve.new@example.test' })).error).toBeNull();
    const code = (to: string) => /code: (\d{6})/.exec(s.lastMail(to).text)![1]!;
    const newCode = code('eve.new@example.test');
    const oldCode = code('eve@example.test');
    const one = await s.auth('/verify', {
      method: 'POST',
      body: JSON.stringify({ type: 'email_change', email: 'eve.new@example.test', token: newCode }),
    });
    expect([one.status, await one.json()]).toEqual([
      200,
      { msg: SINGLE_CONFIRMATION_ACCEPTED, code: 200 },
    ]);
    expect(await canSignIn('eve@example.test')).toBe(true);
    const two = await s.client().auth.verifyOtp({
      type: 'email_change',
      email: 'eve@example.test',
      token: oldCode,
    });
    expect(two.error).toBeNull();
    expect(two.data.user?.email).toBe('eve.new@example.test');
    expect(await canSignIn('eve.new@example.test')).toBe(true);
  });
});

describe('password change', () => {
  it('needs a proof: none is reauthentication_needed, a wrong current password is refused', async () => {
    const sb = await signedIn('fay@example.test');
    const none = await sb.auth.updateUser({ password: 'fresh-password-1' });
    expect(none.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    const wrong = await sb.auth.updateUser({
      password: 'fresh-password-1',
      current_password: 'not-it',
    });
    expect(wrong.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
    expect(await canSignIn('fay@example.test')).toBe(true);
  });

  it('the current password changes it and signs the other sessions out', async () => {
    const sb = await signedIn('fay@example.test');
    const other = await signedIn('fay@example.test');
    const { error } = await sb.auth.updateUser({
      password: 'fresh-password-2',
      current_password: 'right-password',
    });
    expect(error).toBeNull();
    expect((await sb.auth.getUser()).error).toBeNull();
    expect((await other.auth.getUser()).error).not.toBeNull();
    expect(await canSignIn('fay@example.test', 'fresh-password-2')).toBe(true);
  });

  it('a reauthentication code works instead of the password, once', async () => {
    const sb = await signedIn('fay@example.test', 'fresh-password-2');
    expect((await sb.auth.reauthenticate()).error).toBeNull();
    const nonce = /code: (\d{6})/.exec(s.lastMail('fay@example.test').text)![1]!;
    expect((await sb.auth.updateUser({ password: 'fresh-password-3', nonce })).error).toBeNull();
    const again = await sb.auth.updateUser({ password: 'fresh-password-4', nonce });
    expect(again.error?.code).toBe('reauthentication_not_valid');
    expect(await canSignIn('fay@example.test', 'fresh-password-3')).toBe(true);
  });

  it('wrong current passwords are limited like sign-ins (429)', async () => {
    const sb = await signedIn('fay@example.test', 'fresh-password-3');
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) {
      const { error } = await sb.auth.updateUser({
        password: 'fresh-password-5',
        current_password: `guess-${i}`,
      });
      codes.push(error?.code);
    }
    expect(codes).toEqual([
      'invalid_credentials',
      'invalid_credentials',
      'invalid_credentials',
      'over_request_rate_limit',
    ]);
    // Limited, even the right one waits (a guesser cannot tell a hit).
    const right = await sb.auth.updateUser({
      password: 'fresh-password-5',
      current_password: 'fresh-password-3',
    });
    expect(right.error?.code).toBe('over_request_rate_limit');
  });
});

describe('TOTP codes', () => {
  async function enrolled(email: string) {
    await s
      .service()
      .auth.admin.createUser({ email, password: 'right-password', email_confirm: true });
    const sb = await signedIn(email);
    const { data: factor } = await sb.auth.mfa.enroll({ factorType: 'totp' });
    if (factor?.type !== 'totp') throw new Error('expected a TOTP factor');
    return { sb, factorId: factor.id, secret: factor.totp.secret };
  }

  it('refuses a replayed code and an older one, on another session too', async () => {
    const { sb, factorId, secret } = await enrolled('gil@example.test');
    const at = Date.now();
    const code = totp(secret, at);
    expect((await sb.auth.mfa.challengeAndVerify({ factorId, code })).error).toBeNull();
    const other = await signedIn('gil@example.test');
    const replay = await other.auth.mfa.challengeAndVerify({ factorId, code });
    expect(replay.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    const older = await other.auth.mfa.challengeAndVerify({
      factorId,
      code: totp(secret, at - 30_000),
    });
    expect(older.error?.code).toBe('mfa_verification_failed');
    expect((await other.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');
    // The next step's code (within the ±1 window) is new, so it is accepted.
    const next = await other.auth.mfa.challengeAndVerify({
      factorId,
      code: totp(secret, at + 30_000),
    });
    expect(next.error).toBeNull();
    expect((await other.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
  });

  it('limits wrong codes per factor (429), then even the right one waits', async () => {
    const { sb, factorId, secret } = await enrolled('hal@example.test');
    const wrongCode = (c: string) => (c === '000000' ? '111111' : '000000');
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) {
      const { error } = await sb.auth.mfa.challengeAndVerify({
        factorId,
        code: wrongCode(totp(secret)),
      });
      codes.push(error?.code);
    }
    expect(codes).toEqual([
      'mfa_verification_failed',
      'mfa_verification_failed',
      'mfa_verification_failed',
      'over_request_rate_limit',
    ]);
    const right = await sb.auth.mfa.challengeAndVerify({ factorId, code: totp(secret) });
    expect(right.error?.code).toBe('over_request_rate_limit');
  });

  it('an aal1 session of a user with a verified factor cannot unenrol it or enrol another', async () => {
    const { sb, factorId, secret } = await enrolled('ida@example.test');
    expect(
      (await sb.auth.mfa.challengeAndVerify({ factorId, code: totp(secret) })).error,
    ).toBeNull();
    const aal1 = await signedIn('ida@example.test');
    expect((await aal1.auth.mfa.unenroll({ factorId })).error?.code).toBe('insufficient_aal');
    expect((await aal1.auth.mfa.enroll({ factorType: 'totp' })).error?.code).toBe(
      'insufficient_aal',
    );
  });
});
