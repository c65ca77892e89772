import { expect as baseExpect, test, type Page } from '@playwright/test';
import { DEMO, serverRows, serviceRoleKey, signIn, signInAsNewUser } from './support/session';

/** This machine is shared and busy: generous waits (figures, never timing assertions). */
const expect = baseExpect.configure({ timeout: 25_000 });

interface TrackRow {
  id: string;
  title: string;
  artist: string;
  album: string | null;
  genre: string | null;
  plays: number;
  duration: number;
}

async function trackByTitle(page: Page, title: string): Promise<TrackRow> {
  const [row] = await serverRows<TrackRow>(
    page.request,
    `tracks?select=id,title,artist,album,genre,plays,duration&title=eq.${encodeURIComponent(title)}`,
  );
  expect(row, title).toBeTruthy();
  return row!;
}

const SHOTS = '/tmp/shots-track';

test.describe.configure({ timeout: 180_000 });

test.describe('track page', () => {
  test('shows the track: cover, metrics, artist link, About and Up next in the vibe', async ({
    page,
  }) => {
    await signIn(page, DEMO.listener);
    const track = await trackByTitle(page, 'Harbor Lights');
    await page.goto(`/track/${track.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Harbor Lights' })).toBeVisible();
    const details = page.getByRole('list', { name: 'Track details' }).or(page.locator('dl'));
    await expect(details.getByText('Plays')).toBeVisible();
    await expect(details.getByText(new Intl.NumberFormat('en').format(track.plays))).toBeVisible();
    await expect(details.getByText('Duration')).toBeVisible();
    await expect(details.getByText('Genre')).toBeVisible();
    await expect(details.getByText('Album')).toBeVisible();
    await expect(details.getByText(track.album ?? 'Single', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'About' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Lyrics' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);

    const related = page.getByRole('region', { name: 'Up next in the vibe' });
    const links = related.getByRole('link');
    await expect(links.first()).toBeVisible();
    const count = await links.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(5);
    await page.screenshot({ path: `${SHOTS}/track-desktop.png`, fullPage: true });

    // The artist link.
    await page
      .getByRole('region', { name: 'Harbor Lights' })
      .getByRole('link', { name: track.artist })
      .click();
    await expect(page).toHaveURL(new RegExp(`/artist/${encodeURIComponent(track.artist)}$`));

    // A related track opens its page.
    await page.goBack();
    const firstTitle = (await links.first().textContent())!;
    await links.first().click();
    await expect(page.getByRole('heading', { level: 1, name: firstTitle })).toBeVisible();
  });

  test('a single shows Single; a deep link loads before the first sync', async ({ page }) => {
    await signIn(page, DEMO.listener);
    const single = await trackByTitle(page, 'Blue Hour');
    expect(single.album).toBeNull();
    await page.goto(`/track/${single.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Blue Hour' })).toBeVisible();
    await expect(page.locator('dl').getByText('Single', { exact: true })).toBeVisible();
  });

  test('unknown ids: Track Not Found', async ({ page }) => {
    await signIn(page, DEMO.listener);
    await page.goto('/track/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { level: 1, name: 'Track Not Found' })).toBeVisible();
    await page.goto('/track/not-a-track');
    await expect(page.getByRole('heading', { level: 1, name: 'Track Not Found' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/not-found-desktop.png` });
  });

  test('play plays the track with its related tracks queued; again pauses', async ({ page }) => {
    await signInAsNewUser(page, 'Track Player');
    const track = await trackByTitle(page, 'Harbor Lights');
    await page.goto(`/track/${track.id}`);
    const hero = page.getByRole('region', { name: 'Harbor Lights' });
    // The related tracks (what gets queued) are listed once the catalogue is on the device.
    const related = page.getByRole('region', { name: 'Up next in the vibe' }).getByRole('link');
    await expect(related.first()).toBeVisible();
    const relatedCount = await related.count();
    await hero.getByRole('button', { name: 'Play Harbor Lights' }).click();
    await expect(hero.getByRole('button', { name: 'Pause Harbor Lights' })).toBeVisible();
    const queue = () =>
      page.evaluate(() => {
        const saved = JSON.parse(localStorage.getItem('music-player-storage') ?? '{}') as {
          state?: { queue?: { id: string }[] };
        };
        return (saved.state?.queue ?? []).map((t) => t.id);
      });
    await expect.poll(async () => (await queue())[0]).toBe(track.id);
    const ids = await queue();
    expect(ids.length).toBe(relatedCount + 1);
    expect(ids.length).toBeLessThanOrEqual(6);
    await hero.getByRole('button', { name: 'Pause Harbor Lights' }).click();
    await expect(hero.getByRole('button', { name: 'Play Harbor Lights' })).toBeVisible();
  });

  test('like toggles, survives a reload and reaches the server', async ({ page }) => {
    const user = await signInAsNewUser(page, 'Track Liker');
    const track = await trackByTitle(page, 'Porch Light');
    await page.goto(`/track/${track.id}`);
    await page.getByRole('button', { name: 'Save to likes' }).click();
    await expect(page.getByRole('button', { name: 'Added to likes' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const likes = () =>
      serverRows(page.request, `liked_tracks?user_id=eq.${user.id}&track_id=eq.${track.id}`);
    await expect.poll(async () => (await likes()).length).toBe(1);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Added to likes' })).toBeVisible();
    await page.getByRole('button', { name: 'Added to likes' }).click();
    await expect(page.getByRole('button', { name: 'Save to likes' })).toBeVisible();
    await expect.poll(async () => (await likes()).length).toBe(0);
  });

  test('add to playlist: none yet, create new, then adding twice keeps it once', async ({
    page,
  }) => {
    const user = await signInAsNewUser(page, 'Track Curator');
    const track = await trackByTitle(page, 'Orchard Road');
    await page.goto(`/track/${track.id}`);
    await page.getByRole('button', { name: 'Add to playlist' }).click();
    await expect(page.getByText('No playlists found.')).toBeVisible();
    await page.getByRole('menuitem', { name: 'Create new playlist' }).click();
    await expect(page).toHaveURL(/\/library\?create=playlist$/);

    // A playlist of this user on the server; the mirror pulls it on the next sign-in.
    const key = serviceRoleKey();
    const playlistId = crypto.randomUUID();
    const res = await page.request.post('/rest/v1/playlists', {
      headers: { apikey: key, authorization: `Bearer ${key}` },
      data: {
        id: playlistId,
        name: 'Porch Songs',
        description: '',
        created_by: user.id,
        track_ids: [],
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
    await page.goto(`/track/${track.id}`); // a fresh start pulls the new playlist
    for (let i = 0; i < 2; i++) {
      await page.getByRole('button', { name: 'Add to playlist' }).click();
      await page.getByRole('menuitem', { name: 'Porch Songs' }).click();
      await expect(page.getByRole('menu')).toBeHidden();
    }
    await expect(page.getByText('Already in Porch Songs')).toBeVisible();
    await expect
      .poll(async () => {
        const [row] = await serverRows<{ track_ids: string[] }>(
          page.request,
          `playlists?select=track_ids&id=eq.${playlistId}`,
        );
        return row?.track_ids;
      })
      .toEqual([track.id]);
  });

  test('share copies the page link and says so for 2 s', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, DEMO.listener);
    const track = await trackByTitle(page, 'Harbor Lights');
    await page.goto(`/track/${track.id}`);
    await page.getByRole('button', { name: 'Share' }).click();
    await expect(page.getByRole('button', { name: 'Copied to clipboard!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    await expect(page.getByRole('button', { name: 'Share' })).toBeVisible({ timeout: 3000 });
  });
});

test.describe('track page on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('fits the width and keeps every action', async ({ page }) => {
    // A fresh user: the demo listener likes some tracks, and the label depends on when the
    // likes arrive in the mirror.
    await signInAsNewUser(page, 'Phone Listener');
    const track = await trackByTitle(page, 'Paper Lanterns');
    await page.goto(`/track/${track.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Paper Lanterns' })).toBeVisible();
    for (const name of ['Play Paper Lanterns', 'Save to likes', 'Add to playlist', 'Share']) {
      await expect(page.getByRole('button', { name }).first()).toBeVisible();
    }
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/track-mobile.png`, fullPage: true });
  });
});
