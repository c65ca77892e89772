/**
 * Issue 16 on a phone (375 px, the mobile project): an artist requests a PayPal withdrawal on
 * /payouts, the admin completes it on /admin, the artist sees Completed. Neither page scrolls
 * sideways, and every action of the admin tables is on screen without scrolling the table.
 */
import { expect, test, type Locator } from './support/test';
import { expectNoSidewaysScroll } from './support/layout';
import { asAdmin, creditEarnings } from './support/money';
import { createUser, signIn } from './support/session';
import { expectToast, recordToasts } from './support/toasts';

test.describe.configure({ timeout: 150_000 });

/** Inside the viewport's width as laid out (no sideways scroll of its table needed). */
async function expectWithinWidth(locator: Locator) {
  const box = await locator.boundingBox();
  const width = locator.page().viewportSize()!.width;
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

test('phone: an artist withdraws, the admin completes it, the artist sees Completed', async ({
  page,
  browser,
}) => {
  expect(page.viewportSize()?.width).toBe(375);
  const artist = await createUser(page.request, `Phone Payee ${Date.now() % 100000}`);
  await creditEarnings(page.request, artist.id, 12.34);
  await recordToasts(page);
  await signIn(page, artist.email, artist.password);
  await page.goto('/payouts');
  await expect(page.getByRole('group', { name: 'Balance' })).toContainText('€12.34', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('earnings-chart')).toBeVisible();
  await expectNoSidewaysScroll(page);

  await page.getByLabel('Amount (EUR)').fill('6');
  await page.getByLabel('PayPal email').fill('phone-payee@example.com');
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expectToast(
    page,
    'Withdrawal request submitted successfully! Your balance will update once processed.',
  );
  await expect(page.getByTestId('payout-row').getByText('Pending')).toBeVisible();

  const { viewport, isMobile, hasTouch, userAgent, deviceScaleFactor } = test.info().project.use;
  const admin = await asAdmin(browser, {
    viewport,
    isMobile,
    hasTouch,
    userAgent,
    deviceScaleFactor,
  });
  const request = admin.getByTestId('withdrawal-request').filter({ hasText: artist.name });
  // The dashboard reads every section from the server: allow a busy machine time.
  await expect(request).toContainText('€6.00', { timeout: 30_000 });
  await expect(request).toContainText('phone-payee@example.com');
  await expectNoSidewaysScroll(admin);
  await expectWithinWidth(request.getByRole('button', { name: 'Complete' }));
  const firstTrack = admin.getByTestId('moderation-row').first();
  await expectWithinWidth(firstTrack.getByRole('button', { name: /^(Approve|Mark Pending) / }));
  await expectWithinWidth(firstTrack.getByRole('button', { name: /^Delete / }));

  await request.getByRole('button', { name: 'Complete' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Complete' }).click();
  await expectToast(admin, 'Withdrawal completed');
  await expect(request).toHaveCount(0);
  await admin.context().close();

  await page.reload();
  await expect(page.getByTestId('payout-row').getByText('Completed')).toBeVisible({
    timeout: 30_000,
  });
});
