/**
 * /settings flows run at 1440 (settings.spec.ts) and at 375 px (settings.mobile.spec.ts): the
 * e-mail change with both links from the dev mailbox, and "Sign out everywhere else" losing the
 * other browser's session (polled, bounded).
 */
import type { Browser } from '@playwright/test';
import { verifyLink, waitForMail } from './mailbox';
import { createUser, signIn } from './session';
import { expect, type Page } from './test';

export const SETTLED = { timeout: 30_000 };

export async function openSettings(page: Page) {
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible(SETTLED);
}

/** The e-mail change needs both links, and the old address is told. */
export async function emailChangeFlow(page: Page) {
  const user = await createUser(page.request, 'Mover');
  const next = `moved-${user.email}`;
  await signIn(page, user.email, user.password);
  await openSettings(page);
  const field = page.getByLabel('New email address');
  await field.fill(next);
  await field.press('Enter');
  await expect(page.getByText(`Waiting for ${next}`)).toBeVisible(SETTLED);

  const toOld = await waitForMail(page.request, user.email, /Confirm the change/);
  const toNew = await waitForMail(page.request, next, /Confirm your new/);
  await page.goto(verifyLink(toOld));
  await expect(page.getByText(/Confirmation link accepted/)).toBeVisible(SETTLED);
  await expect(page.getByTestId('account-email')).toHaveText(user.email);
  // The second link lands on /settings with the new session in the address's fragment: read it
  // there (navigating away at once could leave before the app had taken the new session; CI once).
  await page.goto(verifyLink(toNew));
  await expect(page.getByTestId('account-email')).toHaveText(next, SETTLED);
  await openSettings(page);
  await expect(page.getByTestId('account-email')).toHaveText(next, SETTLED);
  await waitForMail(page.request, user.email, /email address was changed/);
}

/** Sign out everywhere else: the other browser (not reloaded) loses its session within 60 s. */
export async function signOutEverywhereElseFlow(page: Page, browser: Browser) {
  const user = await createUser(page.request, 'Two Browsers');
  // The other browser comes from the RIPE NCC's network (Amsterdam) through the "proxy" the
  // server trusts in the e2e run (TRUST_PROXY, playwright.config.ts); this one from loopback.
  // Added to the auth server's requests only (a header set for every request would make the
  // browser ask CORS preflights the API does not allow).
  const otherContext = await browser.newContext();
  await otherContext.route('**/auth/v1/token**', (route) =>
    route.continue({
      headers: { ...route.request().headers(), 'x-forwarded-for': '193.0.6.139' },
    }),
  );
  const other = await otherContext.newPage();
  await signIn(other, user.email, user.password);
  await signIn(page, user.email, user.password);
  await openSettings(page);
  const devices = page.getByTestId('device-session');
  await expect(devices).toHaveCount(2, SETTLED);
  await expect(devices.nth(0)).toContainText('Unknown place');
  await expect(devices.nth(1)).toContainText('Netherlands · Last active');
  await expect(devices.nth(1)).toContainText('network 193.0.6.0');
  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(page.getByText('You are signed in on this device only.')).toBeVisible(SETTLED);
  await expect(other).toHaveURL(/\/login$/, { timeout: 60_000 });
  await openSettings(page);
  await expect(page.getByTestId('device-session')).toHaveCount(1);
  await otherContext.close();
}
