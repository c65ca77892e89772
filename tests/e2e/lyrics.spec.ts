import { expect as baseExpect, test, type APIRequestContext, type Page } from './support/test';
import { randomUUID } from 'node:crypto';
import {
  DEMO,
  DEMO_PASSWORD,
  createUser,
  serverRows,
  serviceRoleKey,
  signIn,
  type TestUser,
} from './support/session';

/** This machine is shared and busy: generous waits (figures, never timing assertions). */
const expect = baseExpect.configure({ timeout: 25_000 });

interface Line {
  id: string;
  text: string;
  timestamp: number;
}

const SHOTS = '/tmp/shots-track';

async function trackId(request: APIRequestContext, title: string): Promise<string> {
  const [row] = await serverRows<{ id: string }>(
    request,
    `tracks?select=id&title=eq.${encodeURIComponent(title)}`,
  );
  expect(row, title).toBeTruthy();
  return row!.id;
}

async function serverLyrics(request: APIRequestContext, id: string): Promise<Line[] | null> {
  const [row] = await serverRows<{ lyrics: Line[] }>(
    request,
    `track_lyrics?select=lyrics&track_id=eq.${id}`,
  );
  return row?.lyrics ?? null;
}

const service = () => {
  const key = serviceRoleKey();
  return { apikey: key, authorization: `Bearer ${key}` };
};

/** A fresh user who uploaded a track (playable: the demo's audio), signed in on `page`. */
async function uploaderWithTrack(
  page: Page,
  title: string,
): Promise<{ user: TestUser; id: string }> {
  const user = await createUser(page.request, 'Lyric Writer');
  const [demo] = await serverRows<{ audio_url: string }>(
    page.request,
    'tracks?select=audio_url&title=eq.Harbor%20Lights',
  );
  const id = randomUUID();
  const res = await page.request.post('/rest/v1/tracks', {
    headers: service(),
    data: {
      id,
      title,
      artist: 'Lyric Writer',
      album: null,
      genre: 'Folk',
      duration: 40,
      audio_url: demo!.audio_url,
      uploaded_by: user.id,
      verified: true,
      status: 'ready', // as if the upload pipeline had processed it
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await signIn(page, user.email, user.password);
  return { user, id };
}

/** Synced lyrics on the server: `count` lines, 3 s apart from 0. */
async function putLines(request: APIRequestContext, id: string, count: number): Promise<Line[]> {
  const lyrics = Array.from({ length: count }, (_, i) => ({
    id: `l${i}`,
    text: `Line number ${i + 1} of a song that is sung on a small screen`,
    timestamp: i * 3,
  }));
  // Every track has a lyrics record from its creation: replace it.
  const res = await request.post('/rest/v1/track_lyrics', {
    headers: { ...service(), prefer: 'resolution=merge-duplicates' },
    data: { track_id: id, is_synced: true, lyrics },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return lyrics;
}

/** The REST write a client would make, as `email` with their own access token. */
async function accessToken(request: APIRequestContext, email: string): Promise<string> {
  const { anonKey } = (await (await request.get('/_dev/config')).json()) as { anonKey: string };
  const res = await request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: anonKey },
    data: { email, password: DEMO_PASSWORD },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { access_token: string }).access_token;
}

test.describe.configure({ timeout: 180_000 });

test.describe('lyrics: view mode', () => {
  test('the current line is highlighted and followed while the track plays; a click seeks', async ({
    page,
  }) => {
    const user = await createUser(page.request, 'Lyric Listener');
    await signIn(page, user.email, user.password);
    const id = await trackId(page.request, 'Harbor Lights');
    const lines = (await serverLyrics(page.request, id))!;
    expect(lines.length).toBeGreaterThan(3);
    await page.goto(`/track/${id}`);
    await expect(page.locator('#main').getByText('Synced', { exact: true })).toBeVisible();
    const lyrics = page.getByRole('list', { name: 'Lyrics of Harbor Lights' });
    await expect(lyrics.getByRole('listitem')).toHaveCount(lines.length);
    await expect(lyrics.locator('[aria-current="true"]')).toHaveCount(0);

    await page.getByRole('button', { name: 'Play Harbor Lights' }).first().click();
    const current = lyrics.locator('[aria-current="true"]');
    await expect(current).toContainText(lines[0]!.text, {
      timeout: 5_000 + lines[0]!.timestamp * 1000,
    });
    await expect(current).toContainText(lines[1]!.text, {
      timeout: 5_000 + (lines[1]!.timestamp - lines[0]!.timestamp) * 1000,
    });

    await page.screenshot({ path: `${SHOTS}/lyrics-playing-desktop.png`, fullPage: true });
  });

  test('a click on a line seeks there; the highlight follows, centred in the panel', async ({
    page,
  }) => {
    const { id } = await uploaderWithTrack(page, 'Long Song');
    const lines = await putLines(page.request, id, 16);
    await page.goto(`/track/${id}`);
    const lyrics = page.getByRole('list', { name: 'Lyrics of Long Song' });
    const current = lyrics.locator('[aria-current="true"]');
    const index = () => current.getAttribute('data-line-index').then(Number);
    await lyrics.getByRole('button', { name: lines[4]!.text }).click();
    await expect.poll(index).toBeGreaterThanOrEqual(4);
    const seekedTo = await index();
    await expect.poll(index).toBeGreaterThan(seekedTo); // playback moves the highlight on
    const panel = page.locator('[id]:has(> ol[aria-label="Lyrics of Long Song"])');
    await expect
      .poll(async () => {
        const box = (await panel.boundingBox())!;
        const line = (await current.boundingBox())!;
        return Math.abs(line.y + line.height / 2 - (box.y + box.height / 2)) < line.height;
      })
      .toBe(true);
    expect(await panel.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/lyrics-follow-desktop.png` });
  });

  test('the panel collapses at 320 px and expands up to 720 px', async ({ page }) => {
    const { id } = await uploaderWithTrack(page, 'Tall Song');
    await putLines(page.request, id, 24);
    await page.goto(`/track/${id}`);
    const toggle = page.getByRole('button', { name: 'Show more' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const panel = page.locator('[id]:has(> ol[aria-label="Lyrics of Tall Song"])');
    const collapsed = (await panel.boundingBox())!.height;
    expect(collapsed).toBeLessThanOrEqual(320);
    expect(collapsed).toBeGreaterThan(300);
    await toggle.click();
    const less = page.getByRole('button', { name: 'Show less' });
    await expect(less).toHaveAttribute('aria-expanded', 'true');
    await expect.poll(async () => (await panel.boundingBox())!.height).toBeGreaterThan(320);
    expect((await panel.boundingBox())!.height).toBeLessThanOrEqual(720);
    await less.click();
    await expect(page.getByRole('button', { name: 'Show more' })).toBeVisible();
  });

  test('a non-uploader sees no edit controls, and the server refuses their save', async ({
    page,
  }) => {
    await signIn(page, DEMO.listener);
    const id = await trackId(page.request, 'Porch Light'); // uploaded by the demo artist
    const before = await serverLyrics(page.request, id);
    await page.goto(`/track/${id}`);
    await expect(page.getByRole('heading', { name: 'Lyrics' })).toBeVisible();
    await expect(
      page
        .getByRole('list', { name: /Lyrics of/ })
        .or(page.getByText("Lyrics haven't been added yet.")),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: /(Edit|Add) lyrics/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Save lyrics' })).toHaveCount(0);

    const token = await accessToken(page.request, DEMO.listener);
    const { anonKey } = (await (await page.request.get('/_dev/config')).json()) as {
      anonKey: string;
    };
    const headers = { apikey: anonKey, authorization: `Bearer ${token}` };
    const forged = [{ id: 'x', text: 'Not my song', timestamp: 0 }];
    const upsert = await page.request.post('/rest/v1/track_lyrics?on_conflict=track_id', {
      headers: { ...headers, prefer: 'resolution=merge-duplicates,return=representation' },
      data: { track_id: id, lyrics: forged, is_synced: false },
    });
    expect([401, 403]).toContain(upsert.status());
    const patch = await page.request.patch(`/rest/v1/track_lyrics?track_id=eq.${id}`, {
      headers: { ...headers, prefer: 'return=representation' },
      data: { lyrics: forged },
    });
    if (patch.ok()) expect(await patch.json()).toEqual([]);
    expect(await serverLyrics(page.request, id)).toEqual(before);
  });

  test('Unable to load lyrics when neither the server nor the device has them', async ({
    page,
  }) => {
    await signIn(page, DEMO.listener);
    const id = await trackId(page.request, 'Orchard Road');
    await page.route(/\/rest\/v1\/track_lyrics/, (route) => route.abort());
    await page.goto(`/track/${id}`);
    await expect(page.getByText('Unable to load lyrics')).toBeVisible();
  });
});

test.describe('lyrics studio (the uploader)', () => {
  test('edit: mm:ss or seconds, invalid → 0, new line +4 s, one line always, save trims and sorts', async ({
    page,
  }) => {
    const { id } = await uploaderWithTrack(page, 'Studio Song');
    await page.goto(`/track/${id}`);
    await expect(page.getByText("Lyrics haven't been added yet.")).toBeVisible();
    await page.getByRole('button', { name: 'Add lyrics' }).click();
    await expect(page.getByRole('heading', { name: 'Lyrics studio' })).toBeVisible();

    // One line, which cannot be removed; saving it blank is refused.
    await expect(page.getByLabel(/^Lyric line \d+$/)).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Remove line 1' })).toBeDisabled();
    await page.getByRole('button', { name: 'Save lyrics' }).click();
    await expect(page.getByRole('alert')).toContainText('Unable to save lyrics');
    await expect(page.getByRole('alert')).toContainText(
      'Add at least one lyric line before saving.',
    );

    await page.getByLabel('Timestamp of line 1').fill('00:08');
    await page.getByLabel('Lyric line 1').fill('  Second in time  ');
    await page.getByRole('button', { name: 'Add line' }).click();
    await expect(page.getByLabel('Timestamp of line 2')).toHaveValue('00:12');
    await expect(page.getByLabel('Lyric line 2')).toBeFocused();
    await page.getByLabel('Lyric line 2').fill('First in time');
    await page.getByLabel('Timestamp of line 2').fill('2.5');
    await page.getByLabel('Lyric line 2').press('Enter'); // a new line after line 2
    await expect(page.getByLabel('Timestamp of line 3')).toHaveValue('00:06.50');
    await page.getByLabel('Timestamp of line 3').fill('abc');
    await page.getByLabel('Lyric line 3').fill('Bad time');
    await expect(page.getByLabel('Timestamp of line 3')).toHaveValue('00:00');
    await page.getByLabel('Timestamp of line 3').fill('-4');
    await page.getByLabel('Timestamp of line 3').blur();
    await expect(page.getByLabel('Timestamp of line 3')).toHaveValue('00:00');
    await page.getByLabel('Timestamp of line 3').fill('1:05');
    await page.getByRole('button', { name: 'Add line' }).click(); // a blank line: dropped
    await expect(page.getByLabel(/^Lyric line \d+$/)).toHaveCount(4);
    await page.getByRole('button', { name: 'Add line' }).click();
    await page.getByRole('button', { name: 'Remove line 5' }).click();
    await expect(page.getByLabel(/^Lyric line \d+$/)).toHaveCount(4);
    await page.screenshot({ path: `${SHOTS}/studio-desktop.png`, fullPage: true });

    await page.getByRole('button', { name: 'Save lyrics' }).click();
    await expect(page.getByText('Lyrics saved')).toBeVisible();
    const view = page.getByRole('list', { name: 'Lyrics of Studio Song' });
    await expect(view.getByRole('listitem')).toHaveText(
      ['First in time', 'Second in time', 'Bad time'].map((t) => new RegExp(t)),
    );
    await expect
      .poll(async () => (await serverLyrics(page.request, id))?.map((l) => [l.text, l.timestamp]))
      .toEqual([
        ['First in time', 2.5],
        ['Second in time', 8],
        ['Bad time', 65],
      ]);
  });

  test('stamp from playback, LRC import (file and paste) and export', async ({ page }) => {
    const { id } = await uploaderWithTrack(page, 'Stamped Song');
    await page.goto(`/track/${id}`);
    await page.getByRole('button', { name: 'Add lyrics' }).click();
    await expect(
      page.getByRole('button', { name: 'Stamp line 1 with the current playback time' }),
    ).toBeDisabled();
    await page.getByRole('button', { name: 'Play track' }).click();
    await expect(page.getByRole('button', { name: 'Pause track' })).toBeVisible();
    await page.waitForTimeout(2_500);
    await page.getByRole('button', { name: 'Stamp line 1 with the current playback time' }).click();
    const stamped = await page.getByLabel('Timestamp of line 1').inputValue();
    expect(stamped).toMatch(/^00:0[1-9]/);
    await page.getByRole('button', { name: 'Pause track' }).click();

    // Import a .lrc file.
    const lrc = '[ti:Stamped Song]\n[00:03.00]Third\n[00:01.00]First\n[00:02.00]Second\n';
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'song.lrc', mimeType: 'text/plain', buffer: Buffer.from(lrc) });
    await expect(page.getByText('Imported 3 lines.')).toBeVisible();
    await expect(page.getByLabel('Lyric line 1')).toHaveValue('First');
    await expect(page.getByLabel('Timestamp of line 3')).toHaveValue('00:03');

    // Export what is in the editor.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export .lrc' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('Lyric Writer - Stamped Song.lrc');
    const exported = await (await file.createReadStream()).toArray();
    const text = Buffer.concat(exported).toString('utf8');
    expect(text).toContain('[ti:Stamped Song]');
    expect(text).toContain('[00:01.00]First\n[00:02.00]Second\n[00:03.00]Third');

    // Paste LRC text.
    await page.getByRole('button', { name: 'Paste LRC' }).click();
    await page.getByLabel('LRC or plain text').fill('[00:10.50]Pasted one\n[00:20]Pasted two');
    // By keyboard: the button sits at the bottom of the viewport, where the player bar is; CI
    // once lost this click to the bar (the editor kept the text and 'Imported 3 lines.').
    await page.getByRole('button', { name: 'Import lines' }).press('Enter');
    await expect(page.getByText('Imported 2 lines.')).toBeVisible();
    await expect(page.getByLabel('Timestamp of line 1')).toHaveValue('00:10.50');
    await page.getByRole('button', { name: 'Save lyrics' }).click();
    await expect(page.getByText('Lyrics saved')).toBeVisible();
    await expect
      .poll(async () => (await serverLyrics(page.request, id))?.map((l) => l.text))
      .toEqual(['Pasted one', 'Pasted two']);
  });

  test('saves offline and syncs on reconnect; a server rejection says Failed to save lyrics', async ({
    page,
    context,
  }) => {
    const { id } = await uploaderWithTrack(page, 'Offline Song');
    await page.goto(`/track/${id}`);
    await page.getByRole('button', { name: 'Add lyrics' }).click();
    await context.setOffline(true);
    await page.getByLabel('Lyric line 1').fill('Written on a train');
    await page.getByRole('button', { name: 'Save lyrics' }).click();
    await expect(page.getByText('Written on a train')).toBeVisible();
    // Only the empty record every track gets on the server, not the offline save.
    expect(await serverLyrics(page.request, id)).toEqual([]);
    await context.setOffline(false);
    await expect
      .poll(async () => (await serverLyrics(page.request, id))?.map((l) => l.text), {
        timeout: 20_000,
      })
      .toEqual(['Written on a train']);

    // The track is removed on the server while this device is offline: the queued save is
    // refused by the server and the uploader is told.
    await page.getByRole('button', { name: 'Edit lyrics' }).click();
    await context.setOffline(true);
    await page.getByLabel('Lyric line 1').fill('Too late');
    await page.getByRole('button', { name: 'Save lyrics' }).click();
    await expect(page.getByText('Too late')).toBeVisible();
    const res = await page.request.delete(`/rest/v1/tracks?id=eq.${id}`, { headers: service() });
    expect(res.ok(), await res.text()).toBe(true);
    await context.setOffline(false);
    await expect(page.getByText('Failed to save lyrics')).toBeVisible();
    expect(await serverLyrics(page.request, id)).toBeNull();
  });
});

test.describe('lyrics on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('view and studio fit the width', async ({ page }) => {
    const { id } = await uploaderWithTrack(page, 'Pocket Song');
    await putLines(page.request, id, 12);
    await page.goto(`/track/${id}`);
    await expect(page.getByRole('button', { name: 'Show more' })).toBeVisible();
    const overflow = () =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByRole('heading', { name: 'Lyrics' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/lyrics-mobile.png` });
    await page.getByRole('button', { name: 'Edit lyrics' }).click();
    await expect(page.getByLabel('Lyric line 12')).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByLabel('Lyric line 1', { exact: true }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/studio-mobile.png` });
  });
});
