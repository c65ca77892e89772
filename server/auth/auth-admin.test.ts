/**
 * The admin API (service-role key only), invitations, and the public endpoints (settings, jwks,
 * health).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../db/test-database';
import { followLink, fragment, startAuthTestServer, type AuthTestServer } from './test-support';

let s: AuthTestServer;
beforeAll(async () => {
  s = await startAuthTestServer();
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(() => s?.close(), DATABASE_HOOK_TIMEOUT_MS);

describe('admin API authorisation', () => {
  it('needs a token (401), and a service-role one (403 not_admin otherwise)', async () => {
    const none = await fetch(`${s.url}/auth/v1/admin/users`, {
      headers: { 'X-Supabase-Api-Version': '2024-01-01' },
    });
    expect([none.status, (await none.json()).code]).toEqual([401, 'no_authorization']);
    const anon = await s.auth('/admin/users', {
      headers: { Authorization: `Bearer ${s.keys.anonKey}` },
    });
    expect([anon.status, await anon.json()]).toEqual([
      403,
      { code: 'not_admin', message: 'User not allowed' },
    ]);
    await s.service().auth.admin.createUser({
      email: 'plain@example.test',
      password: 'secret-pass',
      email_confirm: true,
    });
    const sb = s.client();
    const { data } = await sb.auth.signInWithPassword({
      email: 'plain@example.test',
      password: 'secret-pass',
    });
    const user = await s.auth('/admin/users', {
      headers: { Authorization: `Bearer ${data.session!.access_token}` },
    });
    expect(user.status).toBe(403);
    for (const [method, path] of [
      ['POST', '/invite'],
      ['POST', '/admin/generate_link'],
      ['DELETE', `/admin/users/${data.user!.id}`],
    ]) {
      const res = await s.auth(path!, {
        method,
        body: '{}',
        headers: { Authorization: `Bearer ${data.session!.access_token}` },
      });
      expect(res.status, path).toBe(403);
    }
  });
});

describe('admin users CRUD', () => {
  it('creates, lists with pagination, reads, updates and deletes users', async () => {
    const admin = s.service().auth.admin;
    for (const n of [1, 2, 3, 4])
      expect(
        (
          await admin.createUser({
            email: `u${n}@example.test`,
            password: 'secret-pass',
            user_metadata: { n },
          })
        ).error,
      ).toBeNull();
    const dup = await admin.createUser({ email: 'u1@example.test', password: 'secret-pass' });
    expect(dup.error).toMatchObject({ status: 422, code: 'email_exists' });

    const page1 = await admin.listUsers({ page: 1, perPage: 2 });
    expect(page1.data.users).toHaveLength(2);
    expect(page1.data).toMatchObject({ aud: 'authenticated', nextPage: 2, total: 5 });
    const last = await admin.listUsers({ page: 3, perPage: 2 });
    expect(last.data.users).toHaveLength(1);
    expect(last.data).toMatchObject({ nextPage: null, lastPage: 3 });

    const u1 = page1.data.users.find((u) => u.email === 'u4@example.test')!;
    expect((await admin.getUserById(u1.id)).data.user?.user_metadata).toEqual({ n: 4 });
    const updated = await admin.updateUserById(u1.id, {
      email_confirm: true,
      user_metadata: { name: 'Four' },
      app_metadata: { plan_hint: 'x' },
      ban_duration: '1h',
    });
    expect(updated.data.user).toMatchObject({
      user_metadata: { n: 4, name: 'Four' },
      app_metadata: { plan_hint: 'x' },
    });
    expect(updated.data.user?.banned_until).toBeTruthy();
    const banned = await s
      .client()
      .auth.signInWithPassword({ email: 'u4@example.test', password: 'secret-pass' });
    expect(banned.error?.code).toBe('user_banned');
    await admin.updateUserById(u1.id, { ban_duration: 'none' });
    expect(
      (
        await s
          .client()
          .auth.signInWithPassword({ email: 'u4@example.test', password: 'secret-pass' })
      ).error,
    ).toBeNull();

    expect((await admin.deleteUser(u1.id)).error).toBeNull();
    const gone = await admin.getUserById(u1.id);
    expect(gone.error).toMatchObject({ status: 404, code: 'user_not_found' });
    const { rows } = await s.db.query('select 1 from public.profiles where id = $1', [u1.id]);
    expect(rows).toEqual([]);
  });
});

describe('links and invitations', () => {
  it('generates signup, magic-link and recovery links without sending mail', async () => {
    const admin = s.service().auth.admin;
    const before = s.mailer.list().length;
    const signup = await admin.generateLink({
      type: 'signup',
      email: 'gen@example.test',
      password: 'secret-pass',
    });
    expect(signup.error).toBeNull();
    expect(signup.data.properties).toMatchObject({
      verification_type: 'signup',
      email_otp: expect.stringMatching(/^\d{6}$/),
    });
    expect(signup.data.user?.email).toBe('gen@example.test');
    const verified = await s
      .client()
      .auth.verifyOtp({ token_hash: signup.data.properties!.hashed_token, type: 'signup' });
    expect(verified.error).toBeNull();
    const magic = await admin.generateLink({ type: 'magiclink', email: 'gen@example.test' });
    const landed = await followLink(magic.data.properties!.action_link);
    expect(fragment(landed).type).toBe('magiclink');
    const missing = await admin.generateLink({ type: 'recovery', email: 'ghost@example.test' });
    expect(missing.error).toMatchObject({ status: 404, code: 'user_not_found' });
    expect(s.mailer.list()).toHaveLength(before);
  });

  it('invites by mail; the link signs the user in to set a password', async () => {
    const { data, error } = await s.service().auth.admin.inviteUserByEmail('guest@example.test', {
      data: { name: 'Guest' },
      redirectTo: `${s.url}/reset-password`,
    });
    expect(error).toBeNull();
    expect(data.user?.invited_at).toBeTruthy();
    const mail = s.lastMail('guest@example.test');
    expect(mail.subject).toMatch(/invited/);
    const landed = await followLink(mail.links[0]!);
    expect(landed.pathname).toBe('/reset-password');
    expect(fragment(landed).type).toBe('invite');
    const again = await s.service().auth.admin.inviteUserByEmail('guest@example.test');
    expect(again.error?.code).toBe('email_exists');
  });
});

describe('public endpoints', () => {
  it('serves settings, jwks and health', async () => {
    const settings = await (await s.auth('/settings')).json();
    expect(settings).toMatchObject({
      external: { email: true, google: true, phone: false },
      mailer_autoconfirm: false,
      disable_signup: false,
    });
    expect(await (await s.auth('/.well-known/jwks.json')).json()).toEqual({ keys: [] });
    expect(await (await s.auth('/health')).json()).toMatchObject({ name: 'GoTrue' });
    const missing = await s.auth('/nope');
    expect([missing.status, (await missing.json()).code]).toEqual([404, 'not_found']);
  });
});
