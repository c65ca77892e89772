/**
 * Issue 32 on a phone (375 px, the mobile project), with the keyboard: Settings › Privacy fits
 * the screen and passes axe in each state; an export is requested and its state shown; a
 * deletion asked with the password is offered for cancelling at the next sign-in, and "Keep my
 * account" cancels it (the server's row is gone). docs/privacy-rights.md.
 */
import { expect, test } from './support/test';
import { expectNoSidewaysScroll } from './support/layout';
import { createUser, serverRows, signIn } from './support/session';
import { axeViolations } from './support/account-data';

test.describe.configure({ timeout: 180_000 });

test('phone: export requested, deletion asked and cancelled at sign-in', async ({ page }) => {
  expect(page.viewportSize()?.width).toBe(375);
  const user = await createUser(page.request, `Phone Leaver ${Date.now() % 100000}`);
  await signIn(page, user.email, user.password);
  await page.goto('/settings/privacy');
  const request = page.getByRole('button', { name: 'Request my data' });
  await expect(request).toBeEnabled({ timeout: 20_000 });
  await expectNoSidewaysScroll(page);
  expect(await axeViolations(page)).toEqual([]);

  await request.focus();
  await page.keyboard.press('Enter');
  await expect(
    page.getByText(/Your export is ready|Collecting your data|waiting to start|Adding|Saving/),
  ).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByText(/Your export is ready/)).toBeVisible({ timeout: 120_000 });
  await expectNoSidewaysScroll(page);

  const password = page.getByLabel('Your password');
  await password.focus();
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');
  await expect(page.getByText(/Your account will be deleted on/)).toBeVisible({ timeout: 20_000 });
  await expectNoSidewaysScroll(page);
  expect(await axeViolations(page)).toEqual([]);

  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
  await signIn(page, user.email, user.password);
  const dialog = page.getByRole('dialog', { name: 'Your account is scheduled for deletion' });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  expect(await axeViolations(page)).toEqual([]);
  // Keyboard: Tab to "Keep my account" (focus stays in the dialog) and press it.
  const keep = dialog.getByRole('button', { name: 'Keep my account' });
  for (let i = 0; i < 6 && !(await keep.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(keep).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('Your account will not be deleted.')).toBeVisible({
    timeout: 20_000,
  });
  expect(await serverRows(page.request, `account_deletions?user_id=eq.${user.id}`)).toEqual([]);
});
