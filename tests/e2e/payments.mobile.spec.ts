/**
 * Issue 15 on a phone (375 px, the mobile project): a free user chooses Basic on
 * /subscription, pays on the sandbox's hosted checkout with 4242…, watches /payment-approved,
 * then sees Basic as the current plan and downgrades with the spec's confirmation. No page of
 * the flow scrolls sideways.
 */
import { expect, test } from './support/test';
import { downgradeWithConfirmation, fillCard, planCard, shot } from './support/checkout';
import { expectNoSidewaysScroll } from './support/layout';
import { signInAsNewUser } from './support/session';

test.describe.configure({ timeout: 180_000 });
const LOADED = { timeout: 60_000 };

test('phone: upgrade to Basic through the hosted checkout, then downgrade with the confirmation', async ({
  page,
}) => {
  expect(page.viewportSize()?.width).toBe(375);
  await signInAsNewUser(page);
  await page.goto('/subscription');
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible(LOADED);
  await expect(page.getByTestId('plan-status')).toContainText('Free', LOADED);
  await expect(planCard(page, 'Free').getByRole('button', { name: 'Select Plan' })).toBeDisabled();
  await expect(page.getByLabel('Promo code')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, 'subscription-free-phone');

  await planCard(page, 'Basic').getByRole('button', { name: 'Upgrade Plan' }).click();
  await page.waitForURL(/\/_stripe\/c\/pay\/cs_test_/, LOADED);
  await expectNoSidewaysScroll(page);
  await shot(page, 'sandbox-checkout-phone');
  await fillCard(page, '4242 4242 4242 4242');

  await page.waitForURL(/\/payment-approved\?session_id=cs_test_/, LOADED);
  await expect(page.getByTestId('payment-status')).toHaveText(
    'Your Basic plan is active. Enjoy!',
    LOADED,
  );
  await expectNoSidewaysScroll(page);
  await shot(page, 'payment-approved-phone');
  await page.getByRole('link', { name: 'Go to Home' }).click();
  await page.waitForURL(/\/home$/);

  await page.goto('/subscription');
  await downgradeWithConfirmation(page);
  await expectNoSidewaysScroll(page);
  await shot(page, 'subscription-downgraded-phone');
});
