import { expect as baseExpect, test, type Locator, type Page } from './support/test';
import { PlayerPage } from './support/player-page';
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

/** The seek slider's time label is shown, within the waveform's box and over none of the buttons. */
async function expectLabelInside(hero: Locator, waveform: Locator) {
  const label = waveform.locator('.mantine-Slider-label');
  await expect(label).toBeVisible();
  const l = await label.boundingBox();
  const w = await waveform.boundingBox();
  if (!l || !w) throw new Error('No label or waveform');
  expect(l.y).toBeGreaterThanOrEqual(w.y - 0.5);
  expect(l.y + l.height).toBeLessThanOrEqual(w.y + w.height + 0.5);
  expect(l.x).toBeGreaterThanOrEqual(w.x - 0.5);
  expect(l.x + l.width).toBeLessThanOrEqual(w.x + w.width + 0.5);
  for (const button of await hero.getByRole('button').all()) {
    const b = await button.boundingBox();
    if (!b) continue;
    const overlaps =
      l.x < b.x + b.width && b.x < l.x + l.width && l.y < b.y + b.height && b.y < l.y + l.height;
    expect(overlaps, `the label covers ${await button.getAttribute('aria-label')}`).toBe(false);
  }
}

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

  test('a click on the waveform starts the track at that point; then arrow keys seek it', async ({
    page,
  }) => {
    await signInAsNewUser(page, 'Waveform Seeker');
    const track = await trackByTitle(page, 'Harbor Lights');
    expect(track.duration).toBeGreaterThan(30);
    await page.goto(`/track/${track.id}`);
    const waveform = page.getByTestId('track-waveform');
    await expect(waveform.getByTestId('waveform')).toBeVisible();
    // Not playing: the waveform is a drawing, not yet the seek slider.
    await expect(waveform.getByRole('slider')).toHaveCount(0);
    const box = await waveform.boundingBox();
    if (!box) throw new Error('No waveform');
    await page.mouse.click(box.x + box.width * 0.6, box.y + box.height / 2);

    const player = new PlayerPage(page);
    const target = track.duration * 0.6;
    // Once the audio runs it is at the clicked point (from 0 it would be seconds in, not ~60 %).
    await player.expectAudioAdvancing(0.3, 30_000);
    await expect
      .poll(async () => (await player.playingAudio())?.currentTime ?? -1, { timeout: 5_000 })
      .toBeGreaterThan(target - 2);
    expect((await player.playingAudio())?.currentTime ?? 0).toBeLessThan(target + 10);

    // Now the waveform is the seek slider, and the keyboard moves it by 5 s.
    const slider = waveform.getByRole('slider', { name: 'Seek' });
    await expect(slider).toBeVisible();
    await player.button('Pause').click();
    await player.expectNothingPlaying();
    const before = Number(await slider.getAttribute('aria-valuenow'));
    expect(before).toBeGreaterThan(target - 2);
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(async () => Number(await slider.getAttribute('aria-valuenow')))
      .toBeCloseTo(before + 5, 0);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect
      .poll(async () => Number(await slider.getAttribute('aria-valuenow')))
      .toBeCloseTo(before - 5, 0);

    // The focused slider's time label stays inside the waveform, clear of the buttons above it,
    // at 1440 and 375 px, in the middle and at the start (Home).
    const hero = page.getByRole('region', { name: 'Harbor Lights' });
    await expectLabelInside(hero, waveform);
    await page.screenshot({ path: `${SHOTS}/track-seek-label-desktop.png` });
    await page.setViewportSize({ width: 375, height: 812 });
    await slider.focus();
    await expectLabelInside(hero, waveform);
    await waveform.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: `${SHOTS}/track-seek-label-mobile.png` });
    await page.keyboard.press('Home');
    await expect(slider).toHaveAttribute('aria-valuenow', '0');
    await expectLabelInside(hero, waveform);
    await waveform.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: `${SHOTS}/track-seek-label-mobile-start.png` });
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
