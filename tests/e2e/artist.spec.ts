/**
 * /artist/{artistName} (spec 2): header, verified badge, Share profile, stat cards, top track
 * with 'Dive in', tabs Top Tracks / Albums / About, empty and unknown artists, Follow.
 */
import { expect as baseExpect, test, type Page } from './support/test';
import { mkdirSync } from 'node:fs';
import { createUser, DEMO, serverRows, signIn, signInAsNewUser } from './support/session';

/** The e2e server is shared by parallel workers (and other suites): generous, never flaky. */
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });
/** The first screen after a sign-in waits for the first pull of the catalogue. */
const FIRST_LOAD = { timeout: 45_000 };

const SHOTS = '/tmp/shots-artist';
mkdirSync(SHOTS, { recursive: true });

interface TrackRow {
  id: string;
  title: string;
  album: string | null;
  plays: number;
  duration: number;
  verified: boolean;
  created_at: string;
}

const ARTIST = 'Moss & Static';
const artistUrl = (name: string) => `/artist/${encodeURIComponent(name)}`;

function runtime(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** Records whether 'Artist Not Found' was ever on screen (to catch a flash while loading). */
async function watchNotFound(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __notFoundSeen?: boolean };
    w.__notFoundSeen = false;
    new MutationObserver(() => {
      if (document.body?.innerText.includes('Artist Not Found')) w.__notFoundSeen = true;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const notFoundSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notFoundSeen?: boolean }).__notFoundSeen);

test('an artist page shows the header, stats, top track and tabs from the catalogue', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const rows = await serverRows<TrackRow>(
    request,
    `tracks?artist=eq.${encodeURIComponent(ARTIST)}&select=id,title,album,plays,duration,verified,created_at`,
  );
  expect(rows.length).toBeGreaterThan(1);
  const totalPlays = rows.reduce((s, r) => s + r.plays, 0);
  const totalSeconds = rows.reduce((s, r) => s + r.duration, 0);
  const top = [...rows].sort(
    (a, b) => b.plays - a.plays || b.created_at.localeCompare(a.created_at),
  );

  await signIn(page, DEMO.listener);
  await watchNotFound(page);
  await page.goto(artistUrl(ARTIST));

  await expect(page.getByRole('heading', { level: 1, name: ARTIST })).toBeVisible(FIRST_LOAD);
  await expect(page).toHaveTitle(/Moss & Static/);
  expect(rows.some((r) => r.verified)).toBe(true);
  await expect(page.getByText('Verified', { exact: true })).toBeVisible();
  // The seeded artist has an avatar: an image from our own origin, never an outside service.
  const avatar = page.locator('main img').first();
  await expect(avatar).toHaveAttribute('src', /\/storage\/v1\/object\/public\/avatars\//);

  const stats = page.getByRole('list', { name: 'Artist stats' });
  await expect(stats).toContainText(`${rows.length} tracks`);
  await expect(stats).toContainText(new Intl.NumberFormat('en-US').format(totalPlays));
  await expect(stats).toContainText(runtime(totalSeconds));

  // Top Tracks: by plays.
  const table = page.getByRole('table', { name: `Top tracks by ${ARTIST}` });
  await expect(table.getByRole('row')).toHaveCount(rows.length + 1);
  for (const [i, r] of top.entries()) {
    await expect(table.getByRole('row').nth(i + 1)).toContainText(r.title);
  }

  // Top track card: 'Dive in' plays the most played track.
  await expect(page.getByText('Top track', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Dive in' }).click();
  await expect(table.getByRole('button', { name: `Pause ${top[0]!.title}` })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/artist-desktop.png`, fullPage: true });

  // Albums: grouped by album with 'Singles' as the fallback.
  await page.getByRole('tab', { name: 'Albums' }).click();
  const albums = [...new Set(rows.map((r) => r.album ?? 'Singles'))];
  for (const album of albums) {
    await expect(page.getByRole('heading', { level: 3, name: album })).toBeVisible();
  }
  await expect(page.getByRole('table', { name: 'Singles tracks' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/artist-albums-desktop.png`, fullPage: true });

  // About (the artist has a bio): latest release and quick stats.
  await page.getByRole('tab', { name: 'About' }).click();
  await expect(page.getByText(/invented bedroom producer/)).toBeVisible();
  const latest = [...rows].sort((a, b) => b.created_at.localeCompare(a.created_at))[0]!;
  await expect(page.getByRole('heading', { name: 'Latest release' })).toBeVisible();
  await expect(page.getByRole('link', { name: latest.title })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Quick stats' })).toBeVisible();

  // Share profile copies the page's link: 'Link copied!' for 2 s.
  await page.getByRole('button', { name: 'Share profile' }).click();
  await expect(page.getByRole('button', { name: 'Link copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
  await expect(page.getByRole('button', { name: 'Share profile' })).toBeVisible({
    timeout: 4000,
  });
  expect(await notFoundSeen(page)).toBe(false);
});

test('on a fresh device the page waits for the catalogue instead of flashing Not Found', async ({
  page,
}) => {
  await watchNotFound(page);
  await signInAsNewUser(page, 'Fresh Device');
  await page.goto(artistUrl('Kilnworks'));
  await expect(page.getByRole('heading', { level: 1, name: 'Kilnworks' })).toBeVisible(FIRST_LOAD);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Kilnworks' })).toBeVisible(FIRST_LOAD);
  expect(await notFoundSeen(page)).toBe(false);
});

test("an unknown artist reads 'Artist Not Found'", async ({ page }) => {
  await signIn(page, DEMO.listener);
  await page.goto(artistUrl('Nobody Plays Here 404'));
  await expect(page.getByRole('heading', { level: 1, name: 'Artist Not Found' })).toBeVisible(
    FIRST_LOAD,
  );
  await page.screenshot({ path: `${SHOTS}/artist-not-found-desktop.png` });
});

test('an artist without tracks shows the empty tabs and can be followed; the follow survives reload', async ({
  page,
  request,
}) => {
  const artist = await createUser(request, `Quiet Artist ${Date.now().toString(36)}`);
  const fan = await signInAsNewUser(page, 'Fan');
  await page.goto(artistUrl(artist.name));

  await expect(page.getByRole('heading', { level: 1, name: artist.name })).toBeVisible(FIRST_LOAD);
  await expect(page.getByText('No tracks yet')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'About' })).toHaveCount(0);
  await expect(page.getByText('Verified', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Artist stats' })).toContainText('0 tracks');
  await expect(page.getByRole('list', { name: 'Artist stats' })).toContainText('0h 00m');
  await page.getByRole('tab', { name: 'Albums' }).click();
  await expect(page.getByText('No albums yet')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/artist-empty-desktop.png`, fullPage: true });

  await expect(page.getByText('0 followers')).toBeVisible();
  const follow = page.getByRole('button', { name: 'Follow', exact: true });
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await follow.click();
  const following = page.getByRole('button', { name: 'Following' });
  await expect(following).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('1 follower', { exact: true })).toBeVisible();

  await expect
    .poll(
      async () =>
        (
          await serverRows(
            request,
            `followers?follower_id=eq.${fan.id}&following_id=eq.${artist.id}&select=follower_id`,
          )
        ).length,
    )
    .toBe(1);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Following' })).toBeVisible(FIRST_LOAD);
  await expect(page.getByText('1 follower', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Following' }).click();
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();
  await expect(page.getByText('0 followers')).toBeVisible();
  await expect
    .poll(async () => (await serverRows(request, `followers?follower_id=eq.${fan.id}`)).length)
    .toBe(0);
});

test('the artist sees no Follow button on their own artist page', async ({ page }) => {
  await signIn(page, DEMO.artist);
  await page.goto(artistUrl('Juniper Vale'));
  await expect(page.getByRole('heading', { level: 1, name: 'Juniper Vale' })).toBeVisible(
    FIRST_LOAD,
  );
  await expect(page.getByRole('button', { name: 'Share profile' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Follow/ })).toHaveCount(0);
});

test.describe('mobile', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the artist page fits a phone', async ({ page }) => {
    await signIn(page, DEMO.listener);
    await page.goto(artistUrl(ARTIST));
    await expect(page.getByRole('heading', { level: 1, name: ARTIST })).toBeVisible(FIRST_LOAD);
    await expect(page.getByRole('button', { name: 'Dive in' })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/artist-mobile.png`, fullPage: true });
    await page.getByRole('tab', { name: 'About' }).click();
    await page.screenshot({ path: `${SHOTS}/artist-about-mobile.png`, fullPage: true });
  });
});
