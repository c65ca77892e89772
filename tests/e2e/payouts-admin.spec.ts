/**
 * Issue 16 in Chromium: an artist withdraws by PayPal and sees it pending, an admin completes it
 * and the artist sees Completed in green; an admin approves a pending track; a listener reports
 * a track and an admin takes it down; a non-admin at /admin is refused; the fraud view lists a
 * listener whose plays the server refused (issue 23, docs/plays.md). Each test writes with
 * fresh users (the demo admin is shared, read-mostly: its actions touch only this test's rows).
 */
import { expect, test } from './support/test';
import { randomUUID } from 'node:crypto';
import { asAdmin, creditEarnings, seedTrack } from './support/money';
import { createUser, restAs, serverRows, signIn, signInAsNewUser } from './support/session';
import { expectToast, recordToasts } from './support/toasts';
import { chooseRowAction } from './support/row-menu';

test.describe.configure({ timeout: 120_000 });

test('a non-admin at /admin sees the refusal screen, and the server refuses the reads', async ({
  page,
}) => {
  await signInAsNewUser(page);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Administrator Access Required' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/home$/);
});

test('an artist withdraws by PayPal; an admin completes it; the artist sees Completed in green', async ({
  page,
  browser,
}) => {
  const artist = await createUser(page.request, `Payee ${randomUUID().slice(0, 6)}`);
  await creditEarnings(page.request, artist.id, 12.34);
  await recordToasts(page);
  await signIn(page, artist.email, artist.password);
  await page.goto('/payouts');
  await expect(page.getByRole('group', { name: 'Balance' })).toContainText('€12.34', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('earnings-chart')).toBeVisible();

  await page.getByLabel('Amount (EUR)').fill('6');
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expect(page.getByRole('alert')).toContainText('Please provide your PayPal email.');
  await page.getByLabel('PayPal email').fill('payee@example.com');
  // A double click sends one request.
  await page.getByRole('button', { name: 'Request Withdrawal' }).dblclick();
  await expectToast(
    page,
    'Withdrawal request submitted successfully! Your balance will update once processed.',
  );
  await expect(page.getByRole('group', { name: 'Balance' })).toContainText('€6.34');
  await expect(page.getByTestId('payout-row')).toHaveCount(1);
  await expect(page.getByTestId('payout-row').getByText('Pending')).toBeVisible();

  const admin = await asAdmin(browser);
  const request = admin.getByTestId('withdrawal-request').filter({ hasText: artist.name });
  // The dashboard reads every section from the server: allow a busy machine time.
  await expect(request).toContainText('€6.00', { timeout: 30_000 });
  await expect(request).toContainText('payee@example.com');
  await request.getByRole('button', { name: 'Complete' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Complete' }).click();
  await expectToast(admin, 'Withdrawal completed');
  await expect(request).toHaveCount(0);
  await expect(admin.getByTestId('audit-entry').first()).toContainText('Completed a withdrawal');
  await admin.context().close();

  await page.reload();
  const badge = page.getByTestId('payout-row').getByText('Completed');
  await expect(badge).toBeVisible({ timeout: 30_000 });
  // Mantine's light green badge: the text colour is the theme's green.
  const color = await badge.evaluate(
    (el) => getComputedStyle(el.closest('.mantine-Badge-root')!).color,
  );
  const [r, g, b] = color.match(/\d+/g)!.map(Number);
  expect(g!).toBeGreaterThan(r!);
  expect(g!).toBeGreaterThan(b!);
});

test('an admin approves a pending track and it shows as Approved', async ({ page, browser }) => {
  const uploader = await createUser(page.request, 'Pending Uploader');
  const title = `Needs review ${randomUUID().slice(0, 6)}`;
  await seedTrack(page.request, uploader.id, title);
  const admin = await asAdmin(browser);
  const row = admin.getByTestId('moderation-row').filter({ hasText: title });
  await expect(row.getByText('Pending review')).toBeVisible();
  await row.getByRole('button', { name: `Approve ${title}` }).click();
  await expectToast(admin, 'Track approved');
  await expect(row.getByText('Approved')).toBeVisible();
  await admin.context().close();
});

test('a listener reports a track and the admin takes it down', async ({ page, browser }) => {
  // Three people in three browser contexts, one after another: more than the default budget on a
  // busy machine (2.2 min under a load of 20).
  test.slow();
  const uploader = await createUser(page.request, 'Reported Uploader');
  const title = `Reported ${randomUUID().slice(0, 6)}`;
  const trackId = await seedTrack(page.request, uploader.id, title);
  await signInAsNewUser(page, 'Reporting Listener');
  await page.goto(`/explore?q=${encodeURIComponent(title)}`);
  await chooseRowAction(page, title, 'Report track');
  const dialog = page.getByRole('dialog', { name: `Report "${title}"` });
  await dialog.getByLabel('Copyright infringement').check();
  await dialog.getByLabel('Note (optional)').fill('This is my song.');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByText('Thanks. Our moderators will review this track.')).toBeVisible();
  await expect(page).toHaveURL(/\/explore/);

  const admin = await asAdmin(browser);
  const report = admin.getByTestId('report').filter({ hasText: title });
  await expect(report).toContainText('This is my song.', { timeout: 30_000 });
  await report.getByRole('button', { name: 'Take down' }).click();
  await admin.getByLabel('Reason shown to the uploader').fill('Copyright claim upheld.');
  await admin.getByRole('dialog').getByRole('button', { name: 'Take down' }).click();
  await expectToast(admin, 'Track taken down');
  await expect(report).toHaveCount(0);
  await admin.context().close();

  // Gone for listeners at once (the next pull drops it from the mirror), and by its address.
  await page.reload();
  await page.goto(`/explore?q=${encodeURIComponent(title)}`);
  await expect(page.getByText('No tracks found.')).toBeVisible({ timeout: 20_000 });
  await page.goto(`/track/${trackId}`);
  await expect(page.getByText('Track Not Found')).toBeVisible({ timeout: 20_000 });

  // The uploader still has it, and sees why.
  const context = await browser.newContext();
  const own = await context.newPage();
  await signIn(own, uploader.email, uploader.password);
  await own.goto(`/track/${trackId}`);
  await expect(own.getByText('This track was taken down')).toBeVisible({ timeout: 20_000 });
  await expect(own.getByText('Copyright claim upheld.')).toBeVisible();
  await context.close();
});

test('the fraud view lists a listener whose plays the server refused, with the reason', async ({
  page,
  browser,
}) => {
  // Calls without any audio fetched: refused (no audio served), nothing counted.
  const bot = await createUser(page.request, `Play Bot ${randomUUID().slice(0, 6)}`);
  const [track] = await serverRows<{ id: string }>(page.request, 'tracks?select=id&limit=1');
  if (!track) throw new Error('No seeded track');
  const api = await restAs(page.request, bot);
  for (let i = 0; i < 15; i++)
    expect(
      await api.rpc('increment_track_plays', { track_id: track.id, session_id: `bot-${i}` }),
    ).toBe(false);
  const admin = await asAdmin(browser);
  const section = admin.getByRole('region', { name: 'Refused plays' });
  const row = section.getByTestId('refused-listener').filter({ hasText: bot.name });
  await expect(row).toBeVisible();
  await expect(row.getByText('No audio served')).toBeVisible();
  await expect(row.getByRole('cell', { name: '15', exact: true })).toBeVisible();
  await admin.context().close();
});
