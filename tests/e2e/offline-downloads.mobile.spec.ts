/**
 * Offline listening on a phone (375 px, the mobile project): the seeded premium listener
 * downloads a playlist, sees the Downloads tab, goes offline, reloads, reads the offline
 * indicator and plays a downloaded track. Screenshots of each screen go to test-results
 * (looked at by hand; docs/offline.md).
 */
import { expect, test } from './support/test';
import { expectNoSidewaysScroll } from './support/layout';
import { PlayerPage } from './support/player-page';
import { demoUserId, seedPlaylist, shortestTracks } from './support/playlist-seed';
import { waitForServiceWorker } from './support/service-worker';
import { DEMO, signIn } from './support/session';

const OFFLINE_MESSAGE =
  "Offline — downloaded tracks and your library are available. Changes are sent when you're back online.";

test('phone: download a playlist, the Downloads tab, offline indicator and playback', async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(180_000);
  const request = page.request;
  const userId = await demoUserId(request, DEMO.premium);
  const [a, b] = await shortestTracks(request, 2);
  if (!a || !b) throw new Error('the demo catalogue has fewer than 2 tracks');
  const tag = Math.random().toString(36).slice(2, 7);
  const playlist = await seedPlaylist(request, userId, `Pocket ${tag}`, [a.id, b.id]);
  const shot = (name: string) =>
    page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: false });

  await signIn(page, DEMO.premium);
  await waitForServiceWorker(page);
  await page.goto(`/playlist/${playlist}`);
  await page.getByRole('button', { name: `Download Pocket ${tag}` }).tap();
  await expect(page.getByRole('button', { name: `Remove download of Pocket ${tag}` })).toHaveText(
    'Downloaded',
    { timeout: 60_000 },
  );
  await expect(page.getByRole('img', { name: 'Downloaded' })).toHaveCount(2);
  await expectNoSidewaysScroll(page);
  await shot('playlist-downloaded');

  await page.goto('/library?tab=downloads');
  await expect(page.getByTestId('downloads-storage')).toContainText('Downloads use');
  await expect(page.getByRole('table', { name: 'Downloaded tracks' })).toContainText(a.title);
  await expect(page.getByRole('button', { name: 'Remove all downloads' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot('downloads-tab');

  await context.setOffline(true);
  await page.goto(`/playlist/${playlist}`);
  await page.reload();
  const indicator = page.getByRole('status').filter({ hasText: OFFLINE_MESSAGE });
  await expect(indicator).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot('offline-playlist');
  const player = new PlayerPage(page);
  await page.getByRole('button', { name: `Play ${a.title}` }).tap();
  await player.expectBarTitle(a.title);
  await player.expectAudioAdvancing(0.3);
  await shot('offline-playing');

  await context.setOffline(false);
  await expect(indicator).toHaveCount(0);
});
