/**
 * Issue 6, local-first: like a track, create a playlist and add the track to it while the
 * browser is offline; a reload (the service worker serves the shell, Dexie the data) still shows
 * all three; back online, the outbox reaches the server, which holds each write exactly once; a
 * second browser context of the same user shows them after its first pull. Along the way the
 * top bar's sync indicator reads Offline, then Syncing 3 (while the replay is held), then Synced.
 */
import { expect, test, type Page, type Route } from './support/test';
import { serverRows, signIn, signInAsNewUser } from './support/session';
import { goOffline, syncIndicator } from './support/offline';
import { chooseRowAction } from './support/row-menu';

interface TrackRow {
  id: string;
  title: string;
}

/** Waits until the service worker has precached the shell and controls the page. */
async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), {
          once: true,
        }),
      );
    }
  });
}

/** Offline reloads of a full app on a busy machine: more than the default 7 s per check. */
const slow = expect.configure({ timeout: 20_000 });

const indicator = syncIndicator;

test('writes made offline survive a reload, reach the server once and show on another device', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(240_000);
  const [track] = await serverRows<TrackRow>(
    page.request,
    'tracks?select=id,title&order=title.asc&limit=1',
  );
  expect(track).toBeDefined();
  const { id: trackId, title } = track!;
  const playlistName = `Offline Mix ${Date.now().toString(36)}`;

  // Online first: sign in, let the first pull fill the mirror, let the service worker take over.
  const user = await signInAsNewUser(page, 'Offline Listener');
  await waitForServiceWorker(page);
  await page.goto(`/track/${trackId}`);
  await slow(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await slow(indicator(page)).toHaveText('Synced');

  const goOnline = await goOffline(context);
  await slow(indicator(page)).toHaveText('Offline');

  // 1. Like.
  await page.getByRole('button', { name: 'Save to likes' }).click();
  await slow(page.getByRole('button', { name: 'Added to likes' })).toBeVisible();

  // 2. Create a playlist.
  await page.goto('/library?create=playlist');
  await page.getByLabel('Playlist Name').fill(playlistName);
  await page.getByLabel('Description').fill('Made on a train');
  await page.getByRole('button', { name: 'Create Playlist' }).click();
  await slow(page).toHaveURL(/\/library\?tab=playlists$/);
  await slow(page.getByRole('link', { name: new RegExp(playlistName) })).toBeVisible();

  // 3. Add the liked track to it from the Liked Songs list.
  await page.goto('/library?tab=liked');
  await chooseRowAction(page, title, playlistName);
  await slow(page.getByText(`Added to ${playlistName}`)).toBeVisible();

  // Nothing has left the browser yet.
  expect(await serverRows(page.request, `liked_tracks?select=id&user_id=eq.${user.id}`)).toEqual(
    [],
  );

  // A reload while offline: the shell comes from the service worker, the data from IndexedDB.
  await page.reload();
  await slow(indicator(page)).toHaveText('Offline');
  await page.goto(`/track/${trackId}`);
  await slow(page.getByRole('button', { name: 'Added to likes' })).toBeVisible();
  await page.goto('/library?tab=playlists');
  const card = page.getByRole('link', { name: new RegExp(playlistName) });
  await slow(card).toBeVisible();
  await card.click();
  await slow(page).toHaveURL(/\/playlist\/[0-9a-f-]{36}$/);
  await slow(page.getByRole('heading', { level: 1, name: playlistName })).toBeVisible();
  await slow(page.getByRole('main').getByText(title, { exact: true }).first()).toBeVisible();

  // Back online, with the replay held for a moment: the indicator shows the queue.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = async (route: Route) => {
    await held;
    await route.continue();
  };
  await page.route('**/rest/v1/rpc/apply_mutations', hold);
  await goOnline();
  await slow(indicator(page)).toHaveText('Syncing 3');
  release();
  await slow(indicator(page)).toHaveText('Synced');
  await page.unroute('**/rest/v1/rpc/apply_mutations', hold);

  // The server holds each write exactly once.
  await expect
    .poll(() => serverRows(page.request, `liked_tracks?select=track_id&user_id=eq.${user.id}`))
    .toEqual([{ track_id: trackId }]);
  const playlists = await serverRows<{ name: string; description: string; track_ids: string[] }>(
    page.request,
    `playlists?select=name,description,track_ids&created_by=eq.${user.id}`,
  );
  expect(playlists).toEqual([
    { name: playlistName, description: 'Made on a train', track_ids: [trackId] },
  ]);

  // Another device of the same user: its first pull brings all three.
  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    await signIn(second, user.email, user.password);
    await second.goto(`/track/${trackId}`);
    await slow(second.getByRole('button', { name: 'Added to likes' })).toBeVisible();
    await second.goto('/library?tab=playlists');
    const otherCard = second.getByRole('link', { name: new RegExp(playlistName) });
    await slow(otherCard).toBeVisible();
    await otherCard.click();
    await slow(second.getByRole('heading', { level: 1, name: playlistName })).toBeVisible();
    await slow(second.getByRole('main').getByText(title, { exact: true }).first()).toBeVisible();
  } finally {
    await other.close();
  }
});

test('a reload where nothing gets through reads Offline at once, never Syncing first', async ({
  page,
  context,
}) => {
  test.slow(); // the service worker precaches the shell first
  await signInAsNewUser(page);
  await waitForServiceWorker(page);
  await expect(syncIndicator(page)).toHaveText('Synced', { timeout: 30_000 });
  // Nothing gets through while the browser says online (a captive portal, a dead link): the
  // first reload learns it (its requests fail), and the device remembers.
  const api = /\/(rest|auth|functions|realtime)\/v1\//;
  await context.route(api, (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expect(syncIndicator(page)).toHaveText('Offline', { timeout: 30_000 });
  // The next reload's requests hang instead of failing: every text the indicator shows is kept.
  await context.unroute(api);
  await context.route(api, () => undefined);
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { syncTexts: string[] }).syncTexts = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('header [role="status"]')) {
        const text = el.textContent ?? '';
        if (seen.at(-1) !== text) seen.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.reload();
  await expect(syncIndicator(page)).toHaveText('Offline');
  const seen = await page.evaluate(() => (window as unknown as { syncTexts: string[] }).syncTexts);
  expect(seen.filter((text) => text.startsWith('Syncing'))).toEqual([]);
  await context.unroute(api);
});
