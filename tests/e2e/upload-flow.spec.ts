import { expect, test } from './support/test';
import { makeWav } from '../../bench/wav';
import { PlayerPage } from './support/player-page';
import { artistApi } from './support/server-upload';
import { createUser, serverRows, signIn, signInAsNewUser } from './support/session';
import { coverPng, dropAudio, taggedMp3 } from './support/upload-page';

/**
 * The whole upload (issue 14) in the browser: a WAV dropped on /upload goes up in two TUS chunks
 * (6 MiB each, src/data/remote/upload-remote.ts), the connection drops under the second one and
 * tus-js-client resumes from the offset the server reports (HEAD), never from zero; then the
 * server's processing stages show, 'Upload Successful!', the redirect to /library, and the track
 * is in Your Uploads with the length the server decoded from every byte; its page draws its
 * waveform and it plays.
 */
test('a dropped WAV uploads, resumes after a dropped connection, is processed and listed', async ({
  page,
}) => {
  test.setTimeout(300_000); // a 7 MB upload and its processing, on a busy machine
  const artist = await signInAsNewUser(page, 'Resume Artist');
  await page.goto('/upload');
  const seconds = 40;
  const bytes = makeWav(44 + 4 * 44_100 * seconds); // 7.06 MB: more than one 6 MiB chunk
  await dropAudio(page, { name: 'long take.wav', type: 'audio/wav', bytes });
  await expect(page.getByLabel('Title')).toHaveValue('long take');

  // The first PATCH (the second chunk) never reaches the server; the retry's HEAD waits until
  // the page has said so, then everything goes through.
  const requests: string[] = [];
  let dropped = false;
  let release: () => void = () => undefined;
  const reconnectingShown = new Promise<void>((resolve) => (release = resolve));
  let offset: string | null = null;
  await page.route('**/storage/v1/upload/resumable**', async (route) => {
    const method = route.request().method();
    requests.push(method);
    if (method === 'PATCH' && !dropped) {
      dropped = true;
      await route.abort('connectionreset');
      return;
    }
    if (method === 'HEAD') {
      await reconnectingShown;
      const response = await route.fetch();
      offset = response.headers()['upload-offset'] ?? null;
      await route.fulfill({ response });
      return;
    }
    await route.continue();
  });

  await page.getByRole('button', { name: 'Upload Track' }).click();
  await expect(page.getByRole('heading', { name: '“long take”' })).toBeVisible();
  await expect(page.getByText('Reconnecting…')).toBeVisible({ timeout: 60_000 });
  release();
  // The server's stages, then success.
  await expect(page.getByTestId('processing-stage')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('heading', { name: 'Upload Successful!' })).toBeVisible({
    timeout: 120_000,
  });
  // Created with the first chunk, one dropped PATCH, the offset asked, the rest sent once.
  expect(requests).toEqual(['POST', 'PATCH', 'HEAD', 'PATCH']);
  expect(Number(offset)).toBe(6 * 1024 * 1024);

  // The success panel leads to /library by itself (spec 4: after 2 s).
  await expect(page).toHaveURL(/\/library/, { timeout: 15_000 });

  await page.goto('/library?tab=uploads');
  const list = page.getByRole('table', { name: 'Your Uploads' });
  const row = list.getByRole('row').filter({ hasText: 'long take' });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row.getByText('0:40')).toBeVisible();

  // Its page shows the waveform the server measured, and it plays.
  const [track] = await serverRows<{ id: string }>(
    page.request,
    `tracks?select=id&uploaded_by=eq.${artist.id}&title=eq.${encodeURIComponent('long take')}`,
  );
  const id = track?.id ?? 'missing';
  await page.goto(`/track/${id}`);
  const hero = page.getByRole('region', { name: 'long take' });
  await expect(hero.getByTestId('track-waveform').getByTestId('waveform')).toBeVisible({
    timeout: 30_000,
  });
  await hero.getByRole('button', { name: 'Play long take' }).click();
  await expect(hero.getByRole('button', { name: 'Pause long take' })).toBeVisible();
  await new PlayerPage(page).expectAudioAdvancing(0.3, 30_000);
});

/**
 * Your Uploads follows processing: a long WAV (4.5 minutes, 47.6 MB: its 320 kbps rendition
 * takes seconds even on an idle machine) put through the API as the app does (storage, then the
 * track row: support/server-upload.ts), and the artist's list shows it processing with its
 * stage, then ready.
 */
test('Your Uploads shows a track processing with its stage, then ready', async ({ page }) => {
  test.setTimeout(300_000);
  const artist = await createUser(page.request, 'Long Take Artist');
  await signIn(page, artist.email, artist.password);
  await (await artistApi(page.request, artist)).upload('Long Take', 270);
  await page.goto('/library?tab=uploads');
  // Under 'Processing and failed' with its stage, then in the list of ready tracks.
  const inProgress = page.getByRole('region', { name: 'Processing and failed' });
  await expect(inProgress.getByText('Long Take')).toBeVisible({ timeout: 30_000 });
  await expect(inProgress.getByTestId('upload-status')).toHaveText(/^Processing · /);
  const row = page
    .getByRole('table', { name: 'Your Uploads' })
    .getByRole('row')
    .filter({ hasText: 'Long Take' });
  await expect(row.getByTestId('upload-status')).toHaveText('Ready · Pending review', {
    timeout: 240_000,
  });
  await expect(row.getByText('4:30')).toBeVisible();
  await expect(inProgress).toHaveCount(0);
});

/**
 * The tagged MP3 of upload.spec.ts, all the way: its tags and embedded cover fill the form, it
 * uploads, the server processes it, 'Upload Successful!', the redirect; the row the server holds
 * has the tags, the cover in the covers bucket and the duration it measured.
 */
test('a tagged MP3 with an embedded cover goes from the form to a ready track', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const artist = await signInAsNewUser(page, 'Tagged Artist');
  await page.goto('/upload');
  await dropAudio(
    page,
    taggedMp3('harbour mist.mp3', 8, {
      title: 'Harbour Mist',
      artist: 'Neon Harbor',
      album: 'Coastlines',
      genre: 'Synthwave',
      cover: coverPng(64).bytes,
    }),
  );
  await expect(page.getByLabel('Title')).toHaveValue('Harbour Mist');
  await expect(page.getByRole('img', { name: 'Cover preview' })).toBeVisible();
  await page.getByRole('button', { name: 'Upload Track' }).click();
  await expect(page.getByRole('heading', { name: 'Upload Successful!' })).toBeVisible({
    timeout: 120_000,
  });
  await expect(page).toHaveURL(/\/library/, { timeout: 15_000 });
  const [row] = await serverRows<{
    title: string;
    artist: string;
    album: string;
    genre: string;
    cover_image: string | null;
    duration: number;
    status: string;
  }>(
    page.request,
    `tracks?select=title,artist,album,genre,cover_image,duration,status&uploaded_by=eq.${artist.id}`,
  );
  expect(row).toMatchObject({
    title: 'Harbour Mist',
    artist: 'Neon Harbor',
    album: 'Coastlines',
    genre: 'Synthwave',
    duration: 8,
    status: 'ready',
  });
  expect(row?.cover_image).toContain(`/storage/v1/object/public/covers/${artist.id}/`);
});
