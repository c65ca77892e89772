/**
 * PAYMENTS=off seen by a free listener (docs/production.md "Payments off"), shared by the
 * desktop (1440 px) and phone (375 px) specs: no upgrade offer anywhere in the app, the server's
 * notice where an offer would be. The e2e server sells plans, so its `payments-status` answer is
 * replaced with the one PAYMENTS=off gives (server/production-check.test.ts asserts the server's).
 */
import type { Page } from '@playwright/test';
import { expect } from './test';
import { shot } from './checkout';
import { shortestTracks } from './playlist-seed';
import { signInAsNewUser } from './session';

export const PAYMENTS_OFF_NOTICE = 'Paid plans are not available on this server right now.';
const LOADED = { timeout: 60_000 };

export async function expectNoUpgradeOffers(page: Page, width: string) {
  let asked = 0;
  await page.route('**/functions/v1/payments-status', (route) => {
    asked += 1;
    return route.fulfill({ json: { enabled: false, notice: PAYMENTS_OFF_NOTICE } });
  });
  // keepAds: no handler closes a house ad pop-up: none may open.
  await signInAsNewUser(page, undefined, { keepAds: true });

  // Home: the stat cards say Free; the banner's placeholder goes once the answer is in, and no
  // banner replaces it.
  await page.goto('/home');
  await expect(page.getByText('Free', { exact: true }).first()).toBeVisible(LOADED);
  await expect.poll(() => asked, LOADED).toBeGreaterThan(0);
  await expect(page.locator('#main [inert]')).toHaveCount(0, LOADED);
  await expect(page.getByText('Go ad-free with Premium')).toHaveCount(0);
  await expect(page.locator('#main a[href="/subscription"]')).toHaveCount(0);
  await expect(page.locator('[data-house-ad]')).toHaveCount(0);
  await shot(page, `payments-off-home-${width}`);

  // The Download button of a free listener: Premium only, and no upgrade to offer.
  const [track] = await shortestTracks(page.request, 1);
  if (!track) throw new Error('no demo track');
  await page.goto(`/track/${track.id}`);
  await page.getByRole('button', { name: `Download ${track.title}` }).click(LOADED);
  const dialog = page.getByRole('dialog', { name: 'Listen offline' });
  await expect(dialog).toContainText(`Downloads are part of Premium. ${PAYMENTS_OFF_NOTICE}`);
  await expect(dialog.getByRole('link')).toHaveCount(0);
  await shot(page, `payments-off-download-${width}`);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();

  // /upload: the limits without 'Compare plans'.
  await page.goto('/upload');
  await expect(page.getByText('Monthly limit')).toBeVisible(LOADED);
  await expect(page.locator('#main a[href="/subscription"]')).toHaveCount(0);
  await expect(page.getByText('Need more?')).toHaveCount(0);
  await expect(page.locator('[data-house-ad]')).toHaveCount(0);

  // /subscription: the notice in place of checkout.
  await page.goto('/subscription');
  await expect(page.getByTestId('payments-off')).toHaveText(PAYMENTS_OFF_NOTICE, LOADED);
  await shot(page, `payments-off-subscription-${width}`);
}
