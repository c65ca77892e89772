/**
 * Playback by plan in Chromium (docs/upload.md, "Playback"): a WAV goes through the real upload
 * pipeline (storage, track row, processing on the server's workers), then a free listener plays
 * it and the audio element fetches the 128 kbps rendition by signed URL, never the original or
 * the 320 kbps one.
 */
import { expect, test } from '@playwright/test';
import { makeWav, synthSignal } from '../../server/processing/test-fixtures';
import { createUser, signIn } from './support/session';

test('a free listener’s player fetches the 128 kbps rendition, not the original', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const request = page.request;
  const artist = await createUser(request, 'Plan Artist');
  const { anonKey } = (await (await request.get('/_dev/config')).json()) as { anonKey: string };
  const login = await request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: anonKey },
    data: { email: artist.email, password: artist.password },
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const auth = { apikey: anonKey, authorization: `Bearer ${token}` };

  const name = `${artist.id}/${Date.now()}_Plan_Take.wav`;
  const upload = await request.post(`/storage/v1/object/tracks/${name}`, {
    headers: { ...auth, 'content-type': 'audio/wav', 'x-upsert': 'false' },
    data: Buffer.from(makeWav(synthSignal(6))),
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  const insert = await request.post('/rest/v1/tracks?select=id', {
    headers: {
      ...auth,
      prefer: 'return=representation',
      accept: 'application/vnd.pgrst.object+json',
    },
    data: {
      title: 'Plan Take',
      artist: 'Plan Artist',
      audio_url: `tracks/${name}`,
      uploaded_by: artist.id,
    },
  });
  expect(insert.ok(), await insert.text()).toBe(true);
  const { id } = (await insert.json()) as { id: string };
  const state = async () => {
    const res = await request.get(`/rest/v1/tracks?id=eq.${id}&select=status,qualities`, {
      headers: auth,
    });
    return ((await res.json()) as { status: string; qualities: string[] }[])[0];
  };
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
