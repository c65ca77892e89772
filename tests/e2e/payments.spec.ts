/**
 * Plans and payments in Chromium (docs/payments.md): house ads for a free user by the spec's
 * rules, an upgrade through the local sandbox's hosted checkout with Stripe's test card, the
 * plan polled on /payment-approved and changed by the signed webhook, no ads afterwards, the
 * downgrade with its confirmation; a declined card and an invalid promo code change nothing.
 */
import { expect, test } from './support/test';
import { downgradeWithConfirmation, fillCard, planCard, shot } from './support/checkout';
import { signInAsNewUser } from './support/session';

test.describe.configure({ timeout: 180_000 });
const LOADED = { timeout: 60_000 };

test('a free user sees house ads, upgrades to Basic with 4242…, then sees Basic and no ads; downgrades with the confirmation', async ({
  page,
}) => {
  await signInAsNewUser(page, undefined, { keepAds: true });
  await page.goto('/home');
  const banner = page.locator('[data-house-ad="banner"]');
  await expect(banner).toBeVisible(LOADED);
  await expect(banner).toHaveAccessibleName('Advertisement: Soundloft Premium');

  // The pop-up: scrolling past half of the page opens it, above the player bar.
  await page.locator('#main').evaluate((main) => main.scrollTo(0, main.scrollHeight));
  const popup = page.getByRole('dialog', { name: /Discover|Listen without interruptions/ });
  await expect(popup).toBeVisible();
  await shot(page, 'ads-popup-desktop');
  const player = await page.locator('.dashboard-player').boundingBox();
  const box = await popup.boundingBox();
  if (player && box && player.height > 0) expect(box.y + box.height).toBeLessThanOrEqual(player.y);
  await expect(page.getByRole('button', { name: 'Close advertisement' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(popup).toBeHidden();

  await page.goto('/subscription');
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible(LOADED);
  await expect(page.getByTestId('plan-status')).toContainText('Free');
  await expect(planCard(page, 'Free').getByRole('button', { name: 'Select Plan' })).toBeDisabled();
  await expect(page.getByLabel('Promo code')).toBeVisible();
  await shot(page, 'subscription-free-desktop');
  await planCard(page, 'Basic').getByRole('button', { name: 'Upgrade Plan' }).click();

  await page.waitForURL(/\/_stripe\/c\/pay\/cs_test_/, LOADED);
  await shot(page, 'sandbox-checkout-desktop');
  await fillCard(page, '4242 4242 4242 4242');

  await page.waitForURL(/\/payment-approved\?session_id=cs_test_/, LOADED);
  await expect(page.getByTestId('payment-status')).toHaveText(
    /Processing your payment\.\.\.|Updating your subscription\.\.\. \(Attempt \d\/5\)|Your Basic plan is active/,
  );
  await expect(page.getByTestId('payment-status')).toHaveText(
    'Your Basic plan is active. Enjoy!',
    LOADED,
  );
  await page.getByRole('link', { name: 'Go to Home' }).click();
  await page.waitForURL(/\/home$/);
  await expect(page.getByText('Basic', { exact: true }).first()).toBeVisible(LOADED);
  // The ad check runs every second: give it a few, then no ad may be there.
  await page.waitForTimeout(2500);
  await expect(page.locator('[data-house-ad]')).toHaveCount(0);

  await page.goto('/subscription');
  await downgradeWithConfirmation(page);
  await shot(page, 'subscription-downgraded-desktop');
});

test('a declined card ends on /payment-failed with the plan unchanged; an invalid promo code is refused', async ({
  page,
}) => {
  await signInAsNewUser(page);
  await page.goto('/subscription');
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible(LOADED);

  await page.getByLabel('Promo code').fill('NOSUCHCODE');
  await planCard(page, 'Premium').getByRole('button', { name: 'Upgrade Plan' }).click();
  await expect(page.getByText('Invalid promo code.')).toBeVisible(LOADED);
  await page.getByLabel('Promo code').fill('');
  await expect(page.getByText('Invalid promo code.')).toBeHidden();

  await planCard(page, 'Premium').getByRole('button', { name: 'Upgrade Plan' }).click();
  await page.waitForURL(/\/_stripe\/c\/pay\//, LOADED);
  await fillCard(page, '4000 0000 0000 0002');
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  await page.getByRole('link', { name: '← Back' }).click();
  await page.waitForURL(/\/payment-failed$/);
  await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();

  await page.goto('/subscription');
  await expect(page.getByTestId('plan-status')).toContainText('Free', LOADED);
});

test('with payments off on the server the page shows its notice instead of checkout', async ({
  page,
}) => {
  // The server's answer with PAYMENTS=off (server/production-check.test.ts asserts the server
  // gives it); this e2e server sells plans, so the answer is put in its place here.
  const notice = 'Paid plans are not available on this server right now.';
  await page.route('**/functions/v1/payments-status', (route) =>
    route.fulfill({ json: { enabled: false, notice } }),
  );
  await signInAsNewUser(page);
  await page.goto('/subscription');
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible(LOADED);
  await expect(page.getByTestId('payments-off')).toHaveText(notice, LOADED);
  await expect(
    planCard(page, 'Premium').getByRole('button', { name: 'Upgrade Plan' }),
  ).toBeDisabled();
  await expect(
    planCard(page, 'Basic').getByRole('button', { name: 'Upgrade Plan' }),
  ).toBeDisabled();
  await expect(page.getByLabel('Promo code')).toBeHidden();
});

test('/payment-approved shows a signed-in listener the signed-in header, a visitor Log In', async ({
  page,
}) => {
  await signInAsNewUser(page);
  await page.goto('/payment-approved');
  const header = page.getByRole('banner');
  await expect(page.getByTestId('payment-status')).not.toHaveText('Sign in to see your new plan.');
  await expect(header.getByRole('link', { name: 'Open Soundloft' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Log In' })).toHaveCount(0);
  await expect(header.getByRole('link', { name: 'Sign Up Free' })).toHaveCount(0);
  await header.getByRole('link', { name: 'Open Soundloft' }).click();
  await page.waitForURL(/\/home#?$/);

  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto('/payment-approved');
  await expect(page.getByTestId('payment-status')).toHaveText('Sign in to see your new plan.');
  await expect(header.getByRole('link', { name: 'Log In' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Sign Up Free' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Open Soundloft' })).toHaveCount(0);
});
