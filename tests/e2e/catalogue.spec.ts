import { expect, test } from '@playwright/test';

interface SeededTrack {
  id: string;
  title: string;
  audio_url: string;
  cover_image: string | null;
  duration: number;
}

/** The demo catalogue seeded on first start is there and really plays in the browser. */
test('the demo catalogue is seeded and a track plays through an audio element', async ({
  page,
  request,
}) => {
  const { anonKey } = (await (await request.get('/_dev/config')).json()) as { anonKey: string };
  const res = await request.get(
    '/rest/v1/tracks?select=id,title,audio_url,cover_image,duration&order=created_at.desc',
    {
      headers: { apikey: anonKey },
    },
  );
  expect(res.ok()).toBe(true);
  const tracks = (await res.json()) as SeededTrack[];
  expect(tracks.length).toBeGreaterThanOrEqual(40);
  const track = tracks[0]!;
  expect(track.duration).toBeGreaterThanOrEqual(30);
  expect(track.audio_url).toMatch(/^\/storage\/v1\/object\/public\/tracks\//);

  const audioHead = await request.get(track.audio_url, { headers: { range: 'bytes=0-1' } });
  expect(audioHead.status()).toBe(206);
  expect(audioHead.headers()['content-type']).toBe('audio/mpeg');
  if (track.cover_image) {
    const cover = await request.get(track.cover_image);
    expect(cover.headers()['content-type']).toBe('image/png');
  }

  await page.goto('/');
  const played = await page.evaluate(async (src) => {
    const audio = new Audio(src);
    audio.muted = true;
    await audio.play();
    const start = audio.currentTime;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const after = audio.currentTime;
    audio.pause();
    return { start, after, duration: audio.duration, error: audio.error?.message ?? null };
  }, track.audio_url);
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
