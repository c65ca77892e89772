/**
 * Issue 31's moderation ladder in Chromium at 1440 and 375 px (docs/trust-and-safety.md): three
 * listener reports on one uploader's tracks land in the admin moderation queue; from the queue
 * the admin warns (the reported track removed), suspends for 7 days, and bans. The suspended
 * uploader sees that uploads are paused (and the server refuses one), their public page says
 * until when they are suspended, they appeal from /appeals and the admin answers in the queue;
 * the banned uploader cannot sign in. Every decision's e-mail is read from the dev mailbox.
 * No clock is moved: the ladder's steps do not wait for time.
 */
import { randomUUID } from 'node:crypto';
import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from './support/test';
import { waitForMail } from './support/mailbox';
import { asAdmin, seedTrack } from './support/money';
import { authHeadersOf, createUser, restAs, signIn, type TestUser } from './support/session';
import { expectToast } from './support/toasts';

test.describe.configure({ timeout: 300_000 });

async function report(request: APIRequestContext, reporter: TestUser, track: string) {
  await (
    await restAs(request, reporter)
  ).insert('track_reports', {
    track_id: track,
    reason: 'offensive',
    note: 'Hateful lyrics',
  });
}

/** The open queue item about `title` (the queue shows open items by default). */
const queueItem = (admin: Page, title: string) =>
  admin.getByTestId('queue-item').filter({ hasText: title });

async function sanctionFromQueue(
  admin: Page,
  title: string,
  step: 'Warn' | 'Suspend' | 'Ban',
  name: string,
  reason: string,
) {
  await admin.goto('/admin/moderation');
  const item = queueItem(admin, title);
  await expect(item).toBeVisible({ timeout: 30_000 });
  await expect(item).toContainText('Due in');
  await item.getByRole('button', { name: step, exact: true }).click();
  const dialog = admin.getByRole('dialog', { name: `Sanction ${name}` });
  await expect(dialog).toBeVisible();
  if (step === 'Suspend') await expect(dialog.getByLabel('Days of suspension')).toHaveValue('7');
  await dialog.getByLabel('Reason (sent to the user)').fill(reason);
  await dialog.getByRole('button', { name: step, exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  // Acted on: the report left the open queue.
  await expect(item).toHaveCount(0, { timeout: 30_000 });
}

const viewportOf = (width: number) => ({ width, height: width > 800 ? 900 : 812 });

/** The contexts a test opened, closed after it (a failed test's screenshots show only its own). */
let opened: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(opened.map((c) => c.close()));
  opened = [];
});

async function newPage(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: viewportOf(width) });
  opened.push(context);
  return context.newPage();
}

for (const width of [1440, 375]) {
  test(`the ladder at ${width} px: warn, suspend 7 days, ban; an appeal answered; every step mailed`, async ({
    browser,
    request,
  }) => {
    const tag = randomUUID().slice(0, 6);
    const name = `Ladder ${tag}`;
    const uploader = await createUser(request, name);
    const listener = await createUser(request, 'Reporter');
    const titles = ['A', 'B', 'C'].map((x) => `Ladder track ${x} ${tag}`);
    const tracks = [];
    for (const title of titles) tracks.push(await seedTrack(request, uploader.id, title));
    for (const track of tracks) await report(request, listener, track);

    const admin = await asAdmin(browser, { viewport: viewportOf(width) });
    opened.push(admin.context());

    // 1. A warning with the removal of the reported track.
    await sanctionFromQueue(
      admin,
      titles[0]!,
      'Warn',
      name,
      'Hateful lyrics break the guidelines.',
    );
    await expectToast(admin, 'Warning sent');
    const warning = await waitForMail(
      request,
      uploader.email,
      /^A warning on your Soundloft account$/,
    );
    expect(warning.text).toContain(`Removed: "${titles[0]}".`);
    expect(warning.text).toContain('/appeals');

    // 2. A suspension of 7 days.
    await sanctionFromQueue(admin, titles[1]!, 'Suspend', name, 'A second hateful track.');
    await expectToast(admin, 'Account suspended');
    const suspension = await waitForMail(
      request,
      uploader.email,
      /^Your Soundloft account is suspended until /,
    );
    const until = /until (\d{1,2} \w+ \d{4}), /.exec(suspension.subject)![1]!;
    const expected = new Date(Date.now() + 7 * 86_400_000).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(until).toBe(expected);

    // The public page says until when; the uploader's upload page says uploads are paused, and
    // the server refuses an upload anyway.
    await admin.goto(`/profile/${uploader.id}`);
    await expect(admin.getByTestId('suspended-notice')).toHaveText(
      `This account is suspended until ${until}.`,
      { timeout: 30_000 },
    );
    const me = await newPage(browser, width);
    await signIn(me, uploader.email, uploader.password);
    await me.goto('/upload');
    await expect(me.getByTestId('suspended-notice')).toHaveText(
      `Your account is suspended until ${until}: uploads are paused.`,
      { timeout: 30_000 },
    );
    const refused = await request.post('/rest/v1/tracks', {
      headers: await authHeadersOf(request, uploader),
      data: { title: 'Sneaky', artist: name, audio_url: `tracks/${uploader.id}/x.mp3` },
    });
    expect(refused.status()).toBe(403);

    // 3. The uploader appeals the suspension; the admin upholds it in the queue.
    await me.goto('/appeals');
    const decision = me.getByTestId('decision').filter({ hasText: 'Suspension' });
    await decision.getByRole('button', { name: 'Appeal' }).click();
    await decision
      .getByLabel('Why should we change this decision?')
      .fill('That track is a parody, not hate speech.');
    await decision.getByRole('button', { name: 'Send appeal' }).click();
    await expect(decision.getByRole('status')).toContainText('Appeal received: we will answer by', {
      timeout: 30_000,
    });
    await waitForMail(request, uploader.email, /^We received your appeal$/);

    await admin.goto('/admin/moderation');
    await admin.getByText('Appeals', { exact: true }).click();
    // The filtered list replaces the unfiltered one when it arrives: wait for the appeal itself.
    const appeal = admin.locator('[data-testid="queue-item"][data-kind="appeal"]').filter({
      hasText: name,
    });
    await expect(appeal).toContainText('Appeal against a suspension', { timeout: 30_000 });
    await expect(appeal).toContainText('That track is a parody');
    await appeal.getByRole('button', { name: 'Uphold' }).click();
    const answer = admin.getByRole('dialog', { name: 'Uphold the decision' });
    await answer.getByLabel('Reason (sent to the user)').fill('The lyrics target a group.');
    await answer.getByRole('button', { name: 'Uphold' }).click();
    await expectToast(admin, 'Appeal upheld');
    await expect(appeal).toHaveCount(0, { timeout: 30_000 });
    const answered = await waitForMail(request, uploader.email, /^Your appeal was rejected$/);
    expect(answered.text).toContain('The lyrics target a group.');
    await me.reload();
    await expect(me.getByTestId('decision').filter({ hasText: 'Suspension' })).toContainText(
      'Appeal rejected: The lyrics target a group.',
      { timeout: 30_000 },
    );

    // 4. A permanent ban: the uploader cannot sign in any more.
    await admin.getByText('Reports', { exact: true }).click();
    await sanctionFromQueue(admin, titles[2]!, 'Ban', name, 'Third hateful track.');
    await expectToast(admin, 'Account banned');
    const banMail = await waitForMail(
      request,
      uploader.email,
      /^Your Soundloft account is banned$/,
    );
    const again = await newPage(browser, width);
    await again.goto('/login');
    await again.getByLabel('Email').fill(uploader.email);
    await again.getByLabel('Password').and(again.locator('input')).fill(uploader.password);
    await again.getByRole('button', { name: 'Log In' }).click();
    await expect(again.getByText('User is banned')).toBeVisible({ timeout: 30_000 });
    await expect(again).toHaveURL(/\/login/);
    // Signed out, the ban e-mail's single-use link appeals the ban (docs/trust-and-safety.md).
    const appealLink = /\/appeals\/link#t=[0-9a-f]{64}/.exec(banMail.text)?.[0];
    expect(appealLink, banMail.text).toBeTruthy();
    await again.goto(appealLink!);
    const ban = again.getByTestId('decision').filter({ hasText: 'Ban' });
    await ban.getByRole('button', { name: 'Appeal' }).click({ timeout: 30_000 });
    await ban
      .getByLabel('Why should we change this decision?')
      .fill('Please review my tracks again.');
    await ban.getByRole('button', { name: 'Send appeal' }).click();
    await expect(ban.getByRole('status')).toContainText('Appeal received: we will answer by', {
      timeout: 30_000,
    });

    // Every step is in the audit log the dashboard shows (who, what, when, why in its rows).
    await admin.goto('/admin');
    const audit = admin.getByRole('region', { name: 'Audit log' });
    await expect(audit.getByText('Banned an account').first()).toBeVisible({ timeout: 30_000 });
    await expect(audit.getByText('Upheld an appeal').first()).toBeVisible();
  });
}
