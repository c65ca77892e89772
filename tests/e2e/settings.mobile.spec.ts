/**
 * /settings at 375 px (the mobile project): reached from the phone menu, nothing wider than the
 * screen, two-factor sign-in turned on with the keyboard (Enter submits each form), and the
 * e-mail change and "Sign out everywhere else" (the same flows as settings.spec.ts at 1440).
 */
import { TOTP } from 'otpauth';
import { createUser, signIn } from './support/session';
import { emailChangeFlow, SETTLED, signOutEverywhereElseFlow } from './support/settings-flows';
import { expect, test } from './support/test';

test('the phone menu opens Settings; two-factor sign-in fits and works at 375 px', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const user = await createUser(page.request, 'Phone Settings');
  await signIn(page, user.email, user.password);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page
    .getByRole('dialog', { name: 'Menu' })
    .getByRole('link', { name: 'Settings', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible(SETTLED);
  for (const name of ['Account', 'Security', 'Privacy', 'Playback', 'Notifications'])
    await expect(page.getByRole('region', { name, exact: true })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);

  const turnOn = page.getByRole('button', { name: 'Turn on two-factor sign-in' });
  await turnOn.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible(SETTLED);
  const totp = new TOTP({ secret: (await page.getByTestId('totp-secret').textContent())!.trim() });
  const field = page.getByLabel('Code from the app');
  await field.focus();
  await page.keyboard.type(totp.generate());
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10, SETTLED);
});

test('the e-mail change with both links at 375 px', async ({ page }) => {
  test.setTimeout(120_000);
  await emailChangeFlow(page);
});

test('sign out everywhere else at 375 px', async ({ page, browser }) => {
  test.setTimeout(150_000);
  await signOutEverywhereElseFlow(page, browser);
});
