/**
 * Issue 32, your data and leaving (docs/privacy-rights.md), at 1440 px with the keyboard:
 * - export: the request on Settings › Privacy, its progress, the emailed link from the dev
 *   mailbox, the archive unzipped here and its contents checked against the database
 *   (including the original audio, byte for byte); one export a day;
 * - deletion: asked with the password, offered to cancel at the next sign-in, then (the grace
 *   period ended through the service role, the documented test clock) run by the job: sign-in
 *   refused, the upload gone from storage and from another user's playlist.
 * The page passes axe (WCAG 2.1 AA) in each state.
 */
import { expect, test } from './support/test';
import { artistApi } from './support/server-upload';
import { createUser, restAs, serverRows, serviceRoleKey, signIn } from './support/session';
import { waitForMail } from './support/mailbox';
import { axeViolations, endGracePeriod, unzip, userExists } from './support/account-data';
import { asAdmin } from './support/money';

test.describe.configure({ timeout: 240_000 });

test('export: requested with the keyboard, emailed, the archive matches the database', async ({
  page,
}) => {
  const user = await createUser(page.request, `Exporter ${Date.now() % 100000}`);
  const artist = await artistApi(page.request, user);
  const trackId = await artist.upload('Export Song', 3);
  const rest = await restAs(page.request, user);
  await rest.insert('liked_tracks', { user_id: user.id, track_id: trackId });
  await rest.insert('playlists', {
    name: 'Mine to keep',
    created_by: user.id,
    track_ids: [trackId],
  });
  await rest.insert('listening_history', { user_id: user.id, track_id: trackId });

  await signIn(page, user.email, user.password);
  await page.goto('/settings/privacy');
  await expect(page.getByRole('heading', { name: 'Download your data' })).toBeVisible();
  const request = page.getByRole('button', { name: 'Request my data' });
  await expect(request).toBeEnabled({ timeout: 20_000 });
  expect(await axeViolations(page)).toEqual([]);

  await request.focus();
  await page.keyboard.press('Enter');
  // The job's progress, then the ready notice (polled by the page).
  await expect(page.getByText(/Your export is ready/)).toBeVisible({ timeout: 120_000 });
  await expect(page.getByText('You can ask for your next export tomorrow.')).toBeVisible();
  await expect(request).toBeDisabled();
  expect(await axeViolations(page)).toEqual([]);

  const mail = await waitForMail(page.request, user.email, /data export is ready/);
  const link = mail.links.find((l) => l.includes('/storage/v1/object/sign/exports/'));
  expect(link, mail.text).toBeTruthy();
  const download = await page.request.get(link!);
  expect(download.ok()).toBe(true);
  const files = await unzip(await download.body());

  const profile = JSON.parse(files.get('profile.json')!.toString()) as {
    account: { id: string; email: string };
    profile: { name: string };
  };
  expect(profile.account).toMatchObject({ id: user.id, email: user.email });
  expect(profile.profile.name).toBe(user.name);
  const likes = JSON.parse(files.get('likes.json')!.toString()) as { track_id: string }[];
  const dbLikes = await serverRows<{ track_id: string }>(
    page.request,
    `liked_tracks?user_id=eq.${user.id}&select=track_id`,
  );
  expect(likes.map((l) => l.track_id).sort()).toEqual(dbLikes.map((l) => l.track_id).sort());
  const playlists = JSON.parse(files.get('playlists.json')!.toString()) as {
    name: string;
    track_ids: string[];
  }[];
  expect(playlists).toEqual([
    expect.objectContaining({ name: 'Mine to keep', track_ids: [trackId] }),
  ]);
  const history = JSON.parse(files.get('listening_history.json')!.toString()) as unknown[];
  const dbHistory = await serverRows(page.request, `listening_history?user_id=eq.${user.id}`);
  expect(history).toHaveLength(dbHistory.length);
  const uploads = JSON.parse(files.get('uploads.json')!.toString()) as {
    track: { id: string; title: string; audio_url: string };
    lyrics: { track_id: string } | null;
    audio_file: string;
  }[];
  expect(uploads.map((u) => u.track.id)).toEqual([trackId]);
  expect(uploads[0]!.track.title).toBe('Export Song');
  // The original audio, byte for byte as stored.
  const key = serviceRoleKey();
  const original = await page.request.get(`/storage/v1/object/${uploads[0]!.track.audio_url}`, {
    headers: { apikey: key, authorization: `Bearer ${key}` },
  });
  expect(original.ok()).toBe(true);
  expect(files.get(uploads[0]!.audio_file)?.equals(await original.body())).toBe(true);
  for (const name of ['follows.json', 'earnings_statement.json', 'withdrawals.json']) {
    expect(files.has(name), name).toBe(true);
  }

  // One a day: the server refuses a second one, whatever the page shows.
  const again = await page.request.post('/rest/v1/rpc/request_data_export', {
    headers: artist.auth,
    data: {},
  });
  expect(again.status()).toBe(400);
  expect(await again.text()).toContain('one export per day');
});

test('deletion: password, cancel offered at sign-in, after the grace period sign-in is refused', async ({
  page,
}) => {
  const user = await createUser(page.request, `Leaver ${Date.now() % 100000}`);
  const other = await createUser(page.request, 'Playlist Keeper');
  const artist = await artistApi(page.request, user);
  const trackId = await artist.upload('Leaving Song', 3);
  const audio = (
    await serverRows<{ audio_url: string }>(
      page.request,
      `tracks?id=eq.${trackId}&select=audio_url`,
    )
  )[0]!.audio_url;
  await (
    await restAs(page.request, other)
  ).insert('playlists', {
    name: 'Keeps others',
    created_by: other.id,
    track_ids: [trackId],
  });

  await signIn(page, user.email, user.password);
  await page.goto('/settings/privacy');
  await expect(page.getByRole('heading', { name: 'Delete your account' })).toBeVisible();
  const password = page.getByLabel('Your password');
  await expect(password).toBeEnabled({ timeout: 20_000 });
  // A wrong password is refused.
  await password.focus();
  await page.keyboard.type('not-my-password');
  await page.keyboard.press('Enter');
  await expect(page.getByText('That password is not right.')).toBeVisible({ timeout: 20_000 });
  await password.fill('');
  await password.focus();
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');
  await expect(page.getByText(/Your account will be deleted on/)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Keep my account' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // Signing in again during the grace period offers to cancel.
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
  await signIn(page, user.email, user.password);
  const dialog = page.getByRole('dialog', { name: 'Your account is scheduled for deletion' });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole('button', { name: 'Keep my account' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // An admin may read every account's deletion (RLS): the app asks for the admin's own, so
  // nothing of this one shows on the admin's pages.
  const admin = await asAdmin(page.context().browser()!);
  await admin.goto('/settings/privacy');
  await expect(admin.getByLabel('Your password')).toBeEnabled({ timeout: 20_000 });
  await expect(admin.getByText(/Your account will be deleted on/)).toHaveCount(0);
  await expect(
    admin.getByRole('dialog', { name: 'Your account is scheduled for deletion' }),
  ).toHaveCount(0);
  await admin.context().close();

  // The grace period ends; a worker runs the deletion.
  await endGracePeriod(page.request, user.id);
  await expect.poll(() => userExists(page.request, user.id), { timeout: 90_000 }).toBe(false);

  const key = serviceRoleKey();
  const gone = await page.request.get(`/storage/v1/object/${audio}`, {
    headers: { apikey: key, authorization: `Bearer ${key}` },
  });
  expect(gone.status()).toBeGreaterThanOrEqual(400);
  const kept = await serverRows<{ track_ids: string[] }>(
    page.request,
    `playlists?created_by=eq.${other.id}&select=track_ids`,
  );
  expect(kept).toEqual([{ track_ids: [] }]);

  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').and(page.locator('input')).fill(user.password);
  await page.getByLabel('Password').and(page.locator('input')).press('Enter');
  await expect(page.getByRole('alert')).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/login/);
});
