import { expect as baseExpect, test, type Page } from './support/test';
import { randomUUID } from 'node:crypto';
import {
  demoTracks,
  demoTracksWithDistinctCovers,
  seedPlaylist,
  type SeededTrack,
} from './support/playlist-seed';
import { createUser, serverRows, signIn, signInAsNewUser } from './support/session';
import { chooseRowAction } from './support/row-menu';

/** The shared e2e server can be slow under parallel load: wait longer before failing. */
const expect = baseExpect.configure({ timeout: 15_000 });

/** /playlist/{id}: header, play, share, owner menu, remove, reorder, redirect, visitor view. */

function formatRuntime(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

const table = (page: Page, name: string) => page.getByRole('table', { name: `Tracks of ${name}` });

/** The track titles in the order the page shows them. */
const shownTitles = (page: Page, name: string) =>
  table(page, name).locator('tbody tr td:nth-child(2) a').allTextContents();

async function serverTrackIds(page: Page, id: string): Promise<string[]> {
  const rows = await serverRows<{ track_ids: string[] }>(
    page.request,
    `playlists?id=eq.${id}&select=track_ids`,
  );
  return rows[0]?.track_ids ?? [];
}

/** A fresh owner signed in on `page`, with a playlist of the first `count` demo tracks. */
async function ownerWithPlaylist(
  page: Page,
  count = 4,
  name = `Mix ${randomUUID().slice(0, 6)}`,
  distinctCovers = false,
) {
  const tracks = distinctCovers
    ? await demoTracksWithDistinctCovers(page.request, count)
    : await demoTracks(page.request, count);
  const owner = await createUser(page.request, 'Playlist Owner');
  const id = await seedPlaylist(
    page.request,
    owner.id,
    name,
    tracks.map((t) => t.id),
    'Songs for a late train home.',
  );
  await signIn(page, owner.email, owner.password);
  await page.goto(`/playlist/${id}`);
  // The first visit after sign-in also runs the first sync: allow for a slow server.
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('playlist-runtime')).toBeVisible({ timeout: 20_000 });
  return { owner, id, name, tracks };
}

const titlesOf = (tracks: SeededTrack[]) => tracks.map((t) => t.title);

for (const width of ['desktop', 'mobile'] as const) {
  test.describe(`playlist page (${width})`, () => {
    if (width === 'mobile') test.use({ viewport: { width: 375, height: 812 } });
    // Each test signs in a fresh user and waits for the server to hold its writes.
    test.describe.configure({ timeout: 120_000 });

    test('shows the header, plays and pauses, and shares the link', async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const { name, tracks } = await ownerWithPlaylist(page, 4, 'Cover mosaic mix', true);
      await expect(page.getByText('Songs for a late train home.')).toBeVisible();
      await expect(page.getByTestId('playlist-track-count')).toHaveText('4 tracks');
      const total = tracks.reduce((s, t) => s + t.duration, 0);
      await expect(page.getByTestId('playlist-runtime')).toHaveText(formatRuntime(total));
      await expect(page.getByTestId('playlist-mosaic')).toBeVisible();
      expect(await shownTitles(page, name)).toEqual(titlesOf(tracks));

      await page.getByRole('button', { name: 'Play playlist' }).click();
      await expect(page.getByRole('button', { name: 'Pause playlist' })).toBeVisible();
      await page.getByRole('button', { name: 'Pause playlist' }).click();
      await expect(page.getByRole('button', { name: 'Play playlist' })).toBeVisible();

      await page.getByRole('button', { name: 'Share' }).click();
      await expect(page.getByRole('button', { name: 'Link copied!' })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
      await expect(page.getByRole('button', { name: 'Share' })).toBeVisible({ timeout: 4000 });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    });

    test('the owner marks and unmarks the playlist as featured', async ({ page }) => {
      const { owner, id } = await ownerWithPlaylist(page, 2);
      const featured = async () =>
        (
          await serverRows<{ featured_playlist: string | null }>(
            page.request,
            `profiles?id=eq.${owner.id}&select=featured_playlist`,
          )
        )[0]?.featured_playlist ?? null;
      await page.getByRole('button', { name: 'Playlist options' }).click();
      await page.getByRole('menuitem', { name: 'Mark as featured' }).click();
      await expect(page.getByText('Featured', { exact: true })).toBeVisible();
      await expect.poll(featured).toBe(id);
      await page.getByRole('button', { name: 'Playlist options' }).click();
      await page.getByRole('menuitem', { name: 'Remove from featured' }).click();
      await expect(page.getByText('Featured', { exact: true })).toBeHidden();
      await expect.poll(featured).toBeNull();
    });

    test('the owner removes a track', async ({ page }) => {
      const { id, name, tracks } = await ownerWithPlaylist(page, 3);
      const gone = tracks[1]!;
      await chooseRowAction(page, gone.title, 'Remove from playlist');
      await expect.poll(() => shownTitles(page, name)).toEqual(titlesOf([tracks[0]!, tracks[2]!]));
      await expect(page.getByTestId('playlist-track-count')).toHaveText('2 tracks');
      await expect.poll(() => serverTrackIds(page, id)).toEqual([tracks[0]!.id, tracks[2]!.id]);
    });

    test('the owner reorders with the keyboard; the order survives a reload', async ({ page }) => {
      const { id, name, tracks } = await ownerWithPlaylist(page, 4);
      const [a, b, c, d] = tracks as [SeededTrack, SeededTrack, SeededTrack, SeededTrack];
      const handle = page.getByRole('button', { name: `Reorder ${a.title}` });
      await handle.focus();
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => shownTitles(page, name)).toEqual(titlesOf([b, a, c, d]));
      await expect(page.getByRole('status').filter({ hasText: 'Moved' })).toHaveText(
        `Moved ${a.title} to position 2 of 4.`,
      );
      await expect(handle).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => shownTitles(page, name)).toEqual(titlesOf([b, c, d, a]));
      await page.getByRole('button', { name: `Reorder ${c.title}` }).focus();
      await page.keyboard.press('Home');
      const wanted = [c, b, d, a];
      await expect.poll(() => shownTitles(page, name)).toEqual(titlesOf(wanted));
      await expect.poll(() => serverTrackIds(page, id)).toEqual(wanted.map((t) => t.id));
      await page.reload();
      await expect.poll(() => shownTitles(page, name)).toEqual(titlesOf(wanted));
    });

    test('the owner reorders by dragging; the order survives a reload', async ({ page }) => {
      const { id, name, tracks } = await ownerWithPlaylist(page, 4);
      const [a, b, c, d] = tracks as [SeededTrack, SeededTrack, SeededTrack, SeededTrack];
      const from = await page.getByRole('button', { name: `Reorder ${a.title}` }).boundingBox();
      const to = await table(page, name).locator('tbody tr').nth(2).boundingBox();
      if (!from || !to) throw new Error('no boxes');
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2, to.y + to.height / 2, { steps: 12 });
      await page.mouse.up();
      const wanted = [b, c, a, d];
      await expect.poll(() => shownTitles(page, name)).toEqual(titlesOf(wanted));
      await expect(page).toHaveURL(new RegExp(`/playlist/${id}$`));
      await expect.poll(() => serverTrackIds(page, id)).toEqual(wanted.map((t) => t.id));
      await page.reload();
      await expect.poll(() => shownTitles(page, name)).toEqual(titlesOf(wanted));
    });

    test('the owner deletes the playlist after confirming', async ({ page }) => {
      const { id, name } = await ownerWithPlaylist(page, 1);
      await page.getByRole('button', { name: 'Playlist options' }).click();
      await page.getByRole('menuitem', { name: 'Delete playlist' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete playlist' });
      await expect(dialog).toContainText(
        `Are you sure you want to delete "${name}"? This cannot be undone.`,
      );
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await expect(page).toHaveURL(/\/library\?tab=playlists$/);
      await expect(page.getByText('No playlists yet.')).toBeVisible();
      await expect
        .poll(async () => (await serverRows(page.request, `playlists?id=eq.${id}`)).length)
        .toBe(0);
    });

    test('Edit details opens the form in the library and saves', async ({ page }) => {
      const { id } = await ownerWithPlaylist(page, 1);
      await page.getByRole('button', { name: 'Playlist options' }).click();
      await page.getByRole('menuitem', { name: 'Edit details' }).click();
      await expect(page).toHaveURL(new RegExp(`/library\\?tab=playlists&edit=${id}$`));
      const dialog = page.getByRole('dialog', { name: 'Edit details' });
      await expect(dialog.getByLabel('Description')).toHaveValue('Songs for a late train home.');
      await dialog.getByLabel('Playlist Name').fill('Renamed mix');
      await dialog.getByLabel('Description').fill('Now with a better name.');
      await dialog.getByRole('button', { name: 'Save Changes' }).click();
      await expect(page).toHaveURL(new RegExp(`/playlist/${id}$`));
      await expect(page.getByRole('heading', { level: 1, name: 'Renamed mix' })).toBeVisible();
      await expect(page.getByText('Now with a better name.')).toBeVisible();
      await expect
        .poll(async () =>
          serverRows<{ name: string; description: string }>(
            page.request,
            `playlists?id=eq.${id}&select=name,description`,
          ),
        )
        .toEqual([{ name: 'Renamed mix', description: 'Now with a better name.' }]);
    });

    test('an empty playlist says so', async ({ page }) => {
      await ownerWithPlaylist(page, 0);
      await expect(page.getByText('This playlist is empty. Add some tracks!')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Play playlist' })).toBeDisabled();
      await expect(page.getByTestId('playlist-runtime')).toHaveText('0h 00m');
    });

    test('an unknown id redirects to the playlists tab', async ({ page }) => {
      await signInAsNewUser(page);
      await page.goto(`/playlist/${randomUUID()}`);
      await expect(page).toHaveURL(/\/library\?tab=playlists$/);
      await expect(page.getByRole('tab', { name: 'Playlists', selected: true })).toBeVisible();
    });

    test('a visitor can play and share but sees no owner actions', async ({ page }) => {
      const tracks = await demoTracks(page.request, 2);
      const owner = await createUser(page.request, 'Someone Else');
      const name = `Public ${randomUUID().slice(0, 6)}`;
      const id = await seedPlaylist(
        page.request,
        owner.id,
        name,
        tracks.map((t) => t.id),
      );
      await signInAsNewUser(page, 'Visitor');
      await page.goto(`/playlist/${id}`);
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible({ timeout: 20_000 });
      await expect(page.getByText('Someone Else')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Share' })).toBeVisible();
      await page.getByRole('button', { name: 'Play playlist' }).click();
      await expect(page.getByRole('button', { name: 'Pause playlist' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Playlist options' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: /^Reorder / })).toHaveCount(0);
      await page.getByRole('button', { name: `More options for ${tracks[0]!.title}` }).click();
      await expect(page.getByRole('menuitem', { name: 'Add to queue' })).toBeVisible();
      await expect(page.getByRole('menuitem', { name: 'Remove from playlist' })).toHaveCount(0);
    });
  });
}
