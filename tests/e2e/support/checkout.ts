/** The subscription page and the local sandbox's hosted checkout, as the payments specs drive them. */
import { expect, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

/** A plan's card on /subscription (the region named after the plan, with its button). */
export const planCard = (page: Page, name: string) =>
  page.getByRole('region', { name, exact: true }).filter({ has: page.getByRole('button') });

/** Pays on the sandbox's hosted checkout page with one of Stripe's test cards. */
export async function fillCard(page: Page, number: string) {
  await expect(page.getByText('Development stand-in for Stripe Checkout')).toBeVisible();
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Cardholder name').fill('Test Listener');
  await page.getByRole('button', { name: 'Subscribe' }).click();
}

/** With PAYMENTS_SHOTS_DIR set, a screenshot of the viewport to look at (no assertion). */
export async function shot(page: Page, name: string) {
  const dir = process.env.PAYMENTS_SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: false });
}

/**
 * On /subscription as a Basic user: 'Downgrade to Free', accepted in the browser's native
 * confirm() with the spec's words; the page says the request went through and until when the
 * plan lasts.
 */
export async function downgradeWithConfirmation(page: Page) {
  const loaded = { timeout: 60_000 };
  await expect(planCard(page, 'Basic').getByRole('button', { name: /Current Plan/ })).toBeDisabled(
    loaded,
  );
  await expect(page.getByTestId('plan-status')).toContainText('renews on');
  page.once('dialog', (dialog) => {
    expect(dialog.type()).toBe('confirm');
    expect(dialog.message()).toBe(
      'Are you sure you want to downgrade to the Free plan? This will cancel your current subscription.',
    );
    void dialog.accept();
  });
  await planCard(page, 'Free').getByRole('button', { name: 'Downgrade to Free' }).click();
  await expect(
    page.getByText('Downgrade request submitted. Your plan will be updated shortly.', {
      exact: false,
    }),
  ).toBeVisible(loaded);
  await expect(page.getByTestId('plan-status')).toContainText('It ends on', loaded);
  await expect(page.getByTestId('plan-status')).toContainText('Basic');
}
