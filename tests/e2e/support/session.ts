/**
 * Signed-in e2e tests. The suite shares one server, so a test that writes (likes, playlists,
 * follows) signs in as a FRESH user made through GoTrue's admin API; read-only tests may use the
 * seeded demo accounts. The service key is minted from the public dev secret the e2e server runs
 * with (no JWT_SECRET set), by the server's own `apiKey`.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { DEV_JWT_SECRET, apiKey } from '../../../server/keys/keys';

export const DEMO_PASSWORD = 'soundloft-demo';
export const DEMO = {
  admin: 'admin@soundloft.local',
  artist: 'artist@soundloft.local',
  listener: 'listener@soundloft.local',
  premium: 'premium@soundloft.local',
} as const;

export const serviceRoleKey = () => apiKey('service_role', DEV_JWT_SECRET);

export interface TestUser {
  id: string;
  email: string;
  password: string;
  name: string;
}

/** A confirmed user nobody else uses (admin API, like `supabase.auth.admin.createUser`). */
export async function createUser(
  request: APIRequestContext,
  name = 'Test Listener',
): Promise<TestUser> {
  const email = `e2e-${randomUUID().slice(0, 8)}@example.test`;
  const password = 'e2e-password';
  const key = serviceRoleKey();
  const res = await request.post('/auth/v1/admin/users', {
    headers: { apikey: key, authorization: `Bearer ${key}` },
    data: { email, password, email_confirm: true, user_metadata: { name } },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const user = (await res.json()) as { id: string };
  return { id: user.id, email, password, name };
}

export interface SignInOptions {
  /**
   * Leave the free plan's house-ad pop-up alone (the ads spec tests it). Otherwise it is closed
   * whenever it stands in the way of a step: it opens by the spec's timers, at any moment of a
   * long test, over whatever the test is about to click.
   */
  keepAds?: boolean;
}

/** Logs in through the login form and waits for /home. */
export async function signIn(
  page: Page,
  email: string,
  password = DEMO_PASSWORD,
  { keepAds = false }: SignInOptions = {},
): Promise<void> {
  if (!keepAds) {
    // A DOM click: a pointer click would land on whatever overlay is open (a dialog's backdrop)
    // or count as a click outside the menu or list box the step is using, and close it.
    await page.addLocatorHandler(page.locator('[data-house-ad="popup"]'), (popup) =>
      popup.getByRole('button', { name: 'Close advertisement' }).dispatchEvent('click'),
    );
  }
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').and(page.locator('input')).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  // The first sign-in on a device downloads the mirror: allow it time on a busy machine.
  await expect(page).toHaveURL(/\/home#?$/, { timeout: 30_000 });
}

/** A fresh user, signed in on `page`. */
export async function signInAsNewUser(
  page: Page,
  name?: string,
  options?: SignInOptions,
): Promise<TestUser> {
  const user = await createUser(page.request, name);
  await signIn(page, user.email, user.password, options);
  return user;
}

/** The service-role REST read of a table (to check what the server holds). */
export async function serverRows<T>(
  request: APIRequestContext,
  pathAndQuery: string,
): Promise<T[]> {
  const key = serviceRoleKey();
  const res = await request.get(`/rest/v1/${pathAndQuery}`, {
    headers: { apikey: key, authorization: `Bearer ${key}` },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as T[];
}

/** The apikey and bearer headers of a password sign-in as `user` (GoTrue's token grant). */
export async function authHeadersOf(
  request: APIRequestContext,
  user: TestUser,
): Promise<{ apikey: string; authorization: string }> {
  const { anonKey } = (await (await request.get('/_dev/config')).json()) as { anonKey: string };
  const res = await request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: anonKey },
    data: { email: user.email, password: user.password },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const { access_token: token } = (await res.json()) as { access_token: string };
  return { apikey: anonKey, authorization: `Bearer ${token}` };
}

/** REST as a user (the public API, exactly as another client would write). */
export async function restAs(request: APIRequestContext, user: TestUser) {
  const headers = await authHeadersOf(request, user);
  return {
    async insert(table: string, data: unknown) {
      const r = await request.post(`/rest/v1/${table}`, {
        headers: { ...headers, prefer: 'return=minimal' },
        data,
      });
      expect(r.ok(), await r.text()).toBe(true);
    },
    /** `rpc(name, args)`: the function's JSON answer. */
    async rpc(name: string, args: Record<string, unknown>): Promise<unknown> {
      const r = await request.post(`/rest/v1/rpc/${name}`, { headers, data: args });
      expect(r.ok(), await r.text()).toBe(true);
      return r.json();
    },
  };
}
