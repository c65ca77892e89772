/**
 * Playback by plan in Chromium (docs/upload.md, "Playback"): a WAV goes through the real upload
 * pipeline (storage, track row, processing on the server's workers), then a free listener plays
 * it and the audio element fetches the 128 kbps rendition by signed URL, never the original or
 * the 320 kbps one.
 */
import { expect, test } from './support/test';
import { artistApi } from './support/server-upload';
import { createUser, signIn } from './support/session';

test('a free listener’s player fetches the 128 kbps rendition, not the original', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const request = page.request;
  const artist = await createUser(request, 'Plan Artist');
  const api = await artistApi(request, artist);
  const id = await api.upload('Plan Take');
  const state = () => api.state(id);
  await expect.poll(async () => (await state())?.status, { timeout: 180_000 }).toBe('ready');
  expect((await state())?.qualities).toEqual(['standard', 'high', 'lossless']);

  const listener = await createUser(request, 'Free Ear');
  await signIn(page, listener.email, listener.password);
  const audioGets: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && r.url().includes('/storage/v1/object/')) audioGets.push(r.url());
  });
  await page.goto(`/track/${id}`);
  const hero = page.getByRole('region', { name: 'Plan Take' });
  await hero.getByRole('button', { name: 'Play Plan Take' }).click();
  await expect(hero.getByRole('button', { name: 'Pause Plan Take' })).toBeVisible();
  await expect
    .poll(() =>
      audioGets.find((u) => u.includes(`/object/sign/renditions/${id}/standard.mp3?token=`)),
    )
    .toBeTruthy();
  expect(
    audioGets.filter((u) => u.includes('/object/sign/tracks/') || u.includes('high.mp3')),
  ).toEqual([]);
});
