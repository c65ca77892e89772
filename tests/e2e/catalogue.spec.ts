import { expect, test } from './support/test';
import { DEMO, DEMO_PASSWORD } from './support/session';

interface SeededTrack {
  id: string;
  title: string;
  audio_url: string;
  cover_image: string | null;
  duration: number;
  qualities: string[];
}

/**
 * The demo catalogue seeded on first start is there and really plays in the browser, from a
 * signed URL (the tracks bucket is private; docs/upload.md, "Playback").
 */
test('the demo catalogue is seeded and a track plays through an audio element', async ({
  page,
  request,
}) => {
  const { anonKey } = (await (await request.get('/_dev/config')).json()) as { anonKey: string };
  const login = await request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: anonKey },
    data: { email: DEMO.listener, password: DEMO_PASSWORD },
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const auth = { apikey: anonKey, authorization: `Bearer ${token}` };
  const res = await request.get(
    // Oldest first: the seed writes the demo catalogue before any spec runs, while specs running
    // alongside this one may publish tracks of their own (CI once met a 3-s test track first).
    '/rest/v1/tracks?select=id,title,audio_url,cover_image,duration,qualities&order=created_at.asc',
    { headers: auth },
  );
  expect(res.ok()).toBe(true);
  const tracks = (await res.json()) as SeededTrack[];
  expect(tracks.length).toBeGreaterThanOrEqual(40);
  const track = tracks[0]!;
  expect(track.duration).toBeGreaterThanOrEqual(30);
  expect(track.audio_url).toMatch(/^tracks\//);
  const original = track.audio_url.slice('tracks/'.length);
  const open = await request.get(`/storage/v1/object/public/tracks/${original}`);
  expect(open.status()).toBe(400); // private bucket: 'Bucket not found'

  // The free listener's player signs the standard rendition (the original of a row without
  // renditions); the URL serves Range requests.
  const [bucket, path] = track.qualities.includes('standard')
    ? ['renditions', `${track.id}/standard.mp3`]
    : ['tracks', original];
  const sign = await request.post(`/storage/v1/object/sign/${bucket}/${path}`, {
    headers: auth,
    data: { expiresIn: 600 },
  });
  expect(sign.ok(), await sign.text()).toBe(true);
  const src = `/storage/v1${((await sign.json()) as { signedURL: string }).signedURL}`;
  const audioHead = await request.get(src, { headers: { range: 'bytes=0-1' } });
  expect(audioHead.status()).toBe(206);
  expect(audioHead.headers()['content-type']).toBe('audio/mpeg');
  if (track.cover_image) {
    const cover = await request.get(track.cover_image);
    expect(cover.headers()['content-type']).toBe('image/png');
  }

  await page.goto('/');
  const played = await page.evaluate(async (url) => {
    const audio = new Audio(url);
    audio.muted = true;
    await audio.play();
    const start = audio.currentTime;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const after = audio.currentTime;
    audio.pause();
    return { start, after, duration: audio.duration, error: audio.error?.message ?? null };
  }, src);
  expect(played.error).toBeNull();
  expect(played.after - played.start).toBeGreaterThan(0.5);
  expect(played.duration).toBeGreaterThanOrEqual(30);
});

test('the demo accounts can log in', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill('listener@soundloft.local');
  await page.getByLabel('Password').and(page.locator('input')).fill('soundloft-demo');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/home#?$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Welcome back');
});
