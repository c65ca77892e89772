/**
 * The copyright notice → removal → counter-notice → restoration flow in a real browser
 * (docs/trust-and-safety.md), shared by the desktop (1440 px) and phone (375 px) specs: a claimant
 * sends the public form, the admin removes on /admin/copyright/$id, the uploader counter-notifies
 * from the link of their e-mail (signed in at 1440 px; at 375 px signed out, with the e-mail's
 * single-use link), and the test clock (POST /_dev/clock) moves 15 days forward, no
 * sleeps: the track is restored. Every e-mail is read from the dev mailbox. With
 * `offlineListener` (desktop), a premium listener had downloaded the track before its removal:
 * their app's next check (a reload online) deletes the offline copy (docs/offline.md § Rights).
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './test';
import { asAdmin } from './money';
import { expectNoSidewaysScroll } from './layout';
import { waitForMail, uniqueEmail } from './mailbox';
import { DEMO, createUser, serviceRoleKey, signIn } from './session';
import { waitForServiceWorker } from './service-worker';
import { makeWav, synthSignal } from '../../../server/processing/test-fixtures';
import { DOWNLOADS_CACHE } from '../../../src/lib/offline-audio';

const service = () => {
  const key = serviceRoleKey();
  return { apikey: key, authorization: `Bearer ${key}` };
};

/** Is the track listed for an anonymous visitor (REST, as the app reads the catalogue)? */
async function publiclyListed(page: Page, id: string): Promise<boolean> {
  const { anonKey } = (await (await page.request.get('/_dev/config')).json()) as {
    anonKey: string;
  };
  const res = await page.request.get(`/rest/v1/tracks?select=id&id=eq.${id}`, {
    headers: { apikey: anonKey },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as unknown[]).length === 1;
}

/**
 * `signedOut`: the uploader counter-notifies with the e-mail's own link, without signing in (the
 * way of a banned uploader: docs/trust-and-safety.md § Action links); otherwise signed in.
 */
export async function runCopyrightFlow(
  page: Page,
  browser: Browser,
  {
    signedOut = false,
    offlineListener = false,
  }: { signedOut?: boolean; offlineListener?: boolean } = {},
): Promise<void> {
  const uploader = await createUser(page.request, `Uploader ${Date.now() % 100000}`);
  const title = `Night Drive ${Date.now() % 100000}`;
  // A real (short) file, so that a listener can download it.
  const audio = await page.request.post(
    `/storage/v1/object/tracks/${uploader.id}/night-drive.wav`,
    {
      headers: { ...service(), 'content-type': 'audio/wav' },
      data: Buffer.from(makeWav(synthSignal(2))),
    },
  );
  expect(audio.ok(), await audio.text()).toBe(true);
  const made = await page.request.post('/rest/v1/tracks?select=id', {
    headers: { ...service(), prefer: 'return=representation' },
    data: {
      title,
      artist: uploader.name,
      audio_url: `tracks/${uploader.id}/night-drive.wav`,
      uploaded_by: uploader.id,
      status: 'ready',
      verified: true,
    },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const trackId = ((await made.json()) as { id: string }[])[0]!.id;

  // 0. A premium listener downloads it (their own browser: a device of its own).
  const listener = offlineListener
    ? await (await browser.newContext({ viewport: page.viewportSize() })).newPage()
    : null;
  if (listener)
    await test.step('offline listener downloads the track', async () => {
      await signIn(listener, DEMO.premium);
      await waitForServiceWorker(listener);
      await listener.goto(`/track/${trackId}`);
      await listener.getByRole('button', { name: `Download ${title}` }).click();
      await expect(
        listener.getByRole('button', { name: `Remove download of ${title}` }),
      ).toHaveText('Downloaded', { timeout: 60_000 });
    });

  // 1. The claimant (signed out) sends the public form, linked from the copyright policy.
  const claimant = uniqueEmail('claimant');
  await page.goto('/copyright-policy');
  await page.getByRole('link', { name: 'Send a copyright notice' }).click();
  await expect(page).toHaveURL(/\/copyright\/notice/);
  await page.goto(`/copyright/notice?track=${trackId}`);
  await expect(page.getByRole('heading', { name: 'Copyright notice' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Copyright notice' });
  await form.getByLabel('Your full name').fill('Clara Claimant');
  await form.getByLabel('Email').fill(claimant);
  await form.getByLabel('Postal address (optional)').fill('1 Rights Road, Nashville');
  await form.getByLabel('The copyrighted work').fill('"Night Drive" (2024) by Clara Claimant.');
  await expect(form.getByLabel('Track links')).toHaveValue(new RegExp(trackId));
  await form.getByLabel('Signature').fill('Clara Claimant');
  // Server-side validation: the statements are required.
  await form.getByRole('button', { name: 'Send notice' }).click();
  await expect(form.getByRole('alert')).toContainText('Confirm both statements.');
  await form.getByRole('checkbox', { name: /good faith belief that the use/ }).check();
  await form.getByRole('checkbox', { name: /under penalty of perjury, I am the owner/ }).check();
  await expectNoSidewaysScroll(page);
  await form.getByRole('button', { name: 'Send notice' }).click();
  const received = page.getByRole('status').filter({ hasText: 'Notice received' });
  await expect(received).toBeVisible({ timeout: 30_000 });
  const noticeId = (await received.textContent())!.match(/[0-9a-f-]{36}/)![0];
  const ack = await waitForMail(page.request, claimant, /We received your copyright notice/);
  expect(ack.text).toContain(noticeId);
  expect(ack.text).toContain(title);

  // 2. The admin removes it on the notice's page (the queue links there).
  const { viewport, isMobile, hasTouch, userAgent, deviceScaleFactor } = test.info().project.use;
  const admin = await asAdmin(browser, {
    viewport,
    isMobile,
    hasTouch,
    userAgent,
    deviceScaleFactor,
  });
  await admin.goto(`/admin/copyright/${noticeId}`);
  await expect(admin.getByTestId('notice-status')).toHaveText('Acknowledged', { timeout: 30_000 });
  await expect(admin.getByText(claimant)).toBeVisible();
  await admin.getByLabel('Reason').fill('Complete notice; the recording matches the claimed work.');
  await admin.getByRole('button', { name: 'Remove' }).click();
  await expect(admin.getByTestId('notice-status')).toHaveText('Removed', { timeout: 30_000 });
  await expectNoSidewaysScroll(admin);
  expect(await publiclyListed(page, trackId)).toBe(false);
  if (listener)
    await test.step("offline listener's next check deletes the copy", async () => {
      // The app's next check (start online) deletes the offline copy: no file left to play.
      await listener.goto('/library?tab=downloads');
      await expect(listener.getByText('No downloads yet.')).toBeVisible({ timeout: 30_000 });
      await expect
        .poll(
          () =>
            listener.evaluate(
              async (name) => (await (await caches.open(name)).keys()).length,
              DOWNLOADS_CACHE,
            ),
          { timeout: 30_000 },
        )
        .toBe(0);
      await listener.context().close();
    });

  // 3. The uploader is told (without the claimant's contact) and counter-notifies.
  const removedMail = await waitForMail(page.request, uploader.email, /removed after a copyright/);
  expect(removedMail.text).toContain('Clara Claimant');
  expect(removedMail.text).not.toContain(claimant);
  expect(removedMail.text).not.toContain('Rights Road');
  const counterLink = removedMail.links.find((l) => l.includes('/copyright/counter/'))!;
  expect(counterLink).toContain(noticeId);
  if (signedOut) {
    const byLink = new URL(removedMail.links.find((l) => l.includes('/link#t='))!);
    expect(byLink.pathname).toBe(`/copyright/counter/${noticeId}/link`);
    await page.goto(byLink.pathname + byLink.hash);
  } else {
    await signIn(page, uploader.email, uploader.password);
    await page.goto(new URL(counterLink).pathname);
  }
  const counter = page.getByRole('form', { name: 'Counter-notice' });
  await expect(counter).toBeVisible({ timeout: 30_000 });
  await counter.getByLabel('Your full name').fill('Owen Uploader');
  await counter.getByLabel('Postal address').fill('2 Studio Lane, Berlin');
  await counter.getByLabel('Email').fill('owen@uploader.test');
  await counter.getByLabel('Why the removal was a mistake').fill('I wrote and recorded it myself.');
  await counter.getByRole('checkbox', { name: /mistake or misidentification/ }).check();
  await counter.getByRole('checkbox', { name: /consent to the jurisdiction/ }).check();
  await counter.getByLabel('Signature').fill('Owen Uploader');
  await expectNoSidewaysScroll(page);
  await counter.getByRole('button', { name: 'Send counter-notice' }).click();
  await expect(page.getByText('Your counter-notice was forwarded to the claimant.')).toBeVisible({
    timeout: 30_000,
  });
  const forwarded = await waitForMail(page.request, claimant, /counter-notice to your copyright/);
  expect(forwarded.text).toContain('2 Studio Lane, Berlin');
  // The claimant's own link (no account) opens the legal-action form for this notice; they do
  // not use it here (recording it is tests/security/copyright.test.ts's).
  const legalLink = forwarded.links.find((l) => l.includes('/copyright/legal-action#'))!;
  expect(legalLink).toBeTruthy();
  const claimantPage = await (
    await browser.newContext({ viewport: page.viewportSize() })
  ).newPage();
  try {
    await claimantPage.goto(legalLink.replace(/^https?:\/\/[^/]+/, ''));
    const legal = claimantPage.getByRole('form', { name: 'Court action' });
    await expect(legal).toBeVisible({ timeout: 30_000 });
    await expect(claimantPage.getByText(noticeId)).toBeVisible();
    await expectNoSidewaysScroll(claimantPage);
  } finally {
    await claimantPage.context().close();
  }

  // 4. No legal action: 15 days later on the test clock, the track is back.
  const moved = await page.request.post('/_dev/clock', { data: { advanceDays: 15 } });
  expect(moved.ok(), await moved.text()).toBe(true);
  try {
    await admin.reload();
    await expect(admin.getByTestId('notice-status')).toHaveText('Restored', { timeout: 30_000 });
    expect(await publiclyListed(page, trackId)).toBe(true);
    await waitForMail(page.request, uploader.email, /Your track is back/);
    await waitForMail(page.request, claimant, /were restored/);
  } finally {
    await page.request.post('/_dev/clock', { data: { offsetSeconds: 0 } });
    await admin.context().close();
  }
}
