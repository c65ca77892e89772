/**
 * "Downloaded" promises the app opens offline too (issue 34, docs/offline.md "The app shell
 * offline"). A first visit in a fresh browser: the premium listener downloads a track at once and
 * goes offline as soon as it says 'Downloaded'; the reload opens the app from the service worker
 * and the track plays from the downloads cache.
 *
 * The worker's script (/sw.js) is held back until the track's file is in the downloads cache: a
 * loaded machine whose worker is still installing (precaching ~3 MB) when the file lands, every
 * time. Before the fix the marker appeared then, and the reload got the browser's offline page.
 */
import { expect, test, type Page } from './support/test';
import { goOffline } from './support/offline';
import { PlayerPage } from './support/player-page';
import { shortestTracks } from './support/playlist-seed';
import { DEMO, signIn } from './support/session';

const CACHE = 'soundloft-downloads-v1';

const filesInDownloadsCache = (page: Page) =>
  page.evaluate(
    async (name) =>
      (await (await caches.open(name)).keys()).filter((r) => r.url.includes('/offline-audio/'))
        .length,
    CACHE,
  );

test('first visit: download at once, offline at once, reload: the app opens and the track plays', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const [track] = await shortestTracks(page.request, 1);
  if (!track) throw new Error('no demo track');

  let releaseWorker: () => void = () => undefined;
  const workerHeld = new Promise<void>((resolve) => (releaseWorker = resolve));
  let workerAsked = false;
  await context.route('**/sw.js', async (route) => {
    workerAsked = true;
    await workerHeld;
    await route.continue();
  });

  await signIn(page, DEMO.premium);
  await page.goto(`/track/${track.id}`);
  const download = page.getByRole('button', { name: `Download ${track.title}`, exact: true });
  await expect(download).toBeEnabled({ timeout: 30_000 });
  await download.click();
  // The file lands in the downloads cache while the worker is still held back.
  await expect.poll(() => filesInDownloadsCache(page), { timeout: 60_000 }).toBe(1);
  expect(workerAsked).toBe(true);
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
  releaseWorker();

  const done = page.getByRole('button', { name: `Remove download of ${track.title}` });
  await expect(done).toHaveText('Downloaded', { timeout: 90_000 });
  // At once: whatever 'Downloaded' promises must hold now.
  await goOffline(context);
  await page.reload();
  const play = page
    .getByRole('region', { name: track.title })
    .getByRole('button', { name: `Play ${track.title}`, exact: true });
  await expect(play).toBeVisible({ timeout: 30_000 });
  await play.click();
  const player = new PlayerPage(page);
  await player.expectBarTitle(track.title);
  await player.expectAudioAdvancing(0.3, 30_000);
});
