/**
 * Server-side fixtures of the payouts and admin specs: writes with the service role (earnings
 * through the ledger's one writer, tracks as the upload pipeline leaves them), and the demo
 * admin's dashboard in a browser context of its own.
 */
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { DEMO, serviceRoleKey, signIn } from './session';
import { recordToasts } from './toasts';

/** A service-role POST (REST table or RPC), answered with its JSON. */
export async function service(
  request: APIRequestContext,
  path: string,
  data: Record<string, unknown>,
): Promise<unknown> {
  const key = serviceRoleKey();
  const res = await request.post(path, {
    headers: { apikey: key, authorization: `Bearer ${key}`, prefer: 'return=representation' },
    data,
  });
  expect(res.ok(), await res.text()).toBe(true);
  return res.json();
}

/** `amount` EUR of earnings for `userId`, through the ledger (as counted plays credit it). */
export async function creditEarnings(request: APIRequestContext, userId: string, amount: number) {
  await service(request, '/rest/v1/rpc/post_ledger_entry', {
    p_user_id: userId,
    p_amount: amount,
    p_kind: 'play',
  });
}

/** A pending-review track of `uploaderId`, newest of the catalogue (first in the admin table). */
export async function seedTrack(
  request: APIRequestContext,
  uploaderId: string,
  title: string,
): Promise<string> {
  const rows = (await service(request, '/rest/v1/tracks', {
    title,
    artist: 'E2E Artist',
    duration: 120,
    audio_url: `${uploaderId}/1700000000000_e2e.mp3`,
    uploaded_by: uploaderId,
    status: 'ready', // as if the upload pipeline had processed it
  })) as { id: string }[];
  return rows[0]!.id;
}

/** The demo admin on /admin (toasts recorded), in a new context of `browser`. */
export async function asAdmin(browser: Browser, contextOptions = {}): Promise<Page> {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  await recordToasts(page);
  await signIn(page, DEMO.admin);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin dashboard' })).toBeVisible({
    timeout: 30_000,
  });
  return page;
}
