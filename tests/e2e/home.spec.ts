/**
 * /home signed in: greeting, stat cards, Recently Added, Recommended For You (the real
 * get-recommendations function, and its failure), Your Playlists, Friends Activity, the free
 * plan's banner. Read-only checks use the demo accounts; anything that writes uses fresh users.
 */
import { expect, test, type APIRequestContext, type Page } from './support/test';
import { mkdirSync } from 'node:fs';
import { DEMO, createUser, restAs, serverRows, signIn, signInAsNewUser } from './support/session';

interface TrackRow {
  id: string;
  title: string;
}

const SHOTS = process.env.HOME_SHOTS_DIR;
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

// The first visit loads the whole mirror (catalogue, likes, playlists, history): on a busy
// machine that takes a while, so the first wait is generous.
test.describe.configure({ timeout: 120_000 });
const LOADED = { timeout: 60_000 };

/** Signs in and waits until /home shows the mirror's numbers (skeletons gone). */
async function openHome(page: Page, email: string, password?: string) {
  await signIn(page, email, password);
  await expect(statValue(page, 'Current Plan')).toBeVisible(LOADED);
}

const section = (page: Page, name: string) => page.getByRole('region', { name });
const statValue = (page: Page, label: string) =>
  page.getByRole('group', { name: label }).getByTestId('stat-value');
const profileId = async (request: APIRequestContext, name: string) =>
  (
    await serverRows<{ id: string }>(
      request,
      `profiles?select=id&name=eq.${encodeURIComponent(name)}`,
    )
  )[0]!.id;

test.describe('home, signed in as the demo listener (read-only)', () => {
  test('greeting, stat cards, Recently Added, See All links, recommendations, playlists, banner', async ({
    page,
    request,
  }) => {
    const me = await profileId(request, 'Lena Listener');
    const [uploads, likes, playlists, newest, history] = await Promise.all([
      serverRows(request, `tracks?select=id&uploaded_by=eq.${me}`),
      serverRows<{ track_id: string }>(request, `liked_tracks?select=track_id&user_id=eq.${me}`),
      serverRows<{ name: string }>(
        request,
        `playlists?select=name&created_by=eq.${me}&order=created_at.desc`,
      ),
      serverRows<TrackRow>(request, 'tracks?select=id,title&order=created_at.desc&limit=8'),
      serverRows<{ track_id: string }>(
        request,
        `listening_history?select=track_id&user_id=eq.${me}`,
      ),
    ]);
    await openHome(page, DEMO.listener);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Lena');

    await expect(statValue(page, 'Your Tracks')).toHaveText(String(uploads.length));
    await expect(statValue(page, 'Liked Songs')).toHaveText(String(likes.length), LOADED);
    await expect(statValue(page, 'Playlists')).toHaveText(String(playlists.length), LOADED);
    await expect(statValue(page, 'Current Plan')).toHaveText('Free');

    // Recently Added: the 8 newest tracks, in order; each title opens its track page.
    const recent = section(page, 'Recently Added');
    const recentItems = recent
      .getByRole('list', { name: 'Recently added tracks' })
      .getByRole('listitem');
    await expect(recentItems).toHaveCount(8);
    await expect(recentItems.getByRole('link')).toHaveText(newest.map((t) => t.title));
    await expect(recentItems.first().getByRole('link')).toHaveAttribute(
      'href',
      `/track/${newest[0]!.id}`,
    );
    await expect(recent.getByRole('link', { name: 'See All' })).toHaveAttribute('href', '/explore');

    // Recommended For You: from the function; nothing the listener already played or liked.
    const recommended = section(page, 'Recommended For You').getByRole('listitem');
    await expect(recommended.first()).toBeVisible(LOADED);
    const known = new Set([...likes, ...history].map((r) => r.track_id));
    const hrefs = await recommended
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(known.has(href.replace('/track/', ''))).toBe(false);

    // Your Playlists: newest first, at most 5; See All goes to the library's playlists tab.
    const mine = section(page, 'Your Playlists');
    await expect(mine.getByRole('listitem')).toHaveCount(Math.min(5, playlists.length), LOADED);
    await expect(mine.getByRole('listitem').first()).toContainText(playlists[0]!.name);
    await expect(mine.getByRole('link', { name: 'See All' })).toHaveAttribute(
      'href',
      '/library?tab=playlists',
    );

    // Friends Activity: the listener follows people with a listening history (seeded).
    await expect(
      section(page, 'Friends Activity')
        .getByRole('list', { name: 'Friends activity' })
        .getByRole('listitem')
        .first(),
    ).toBeVisible(LOADED);

    // The free plan's banner: both buttons to /subscription.
    const banner = section(page, 'Go ad-free with Premium');
    await expect(banner.getByRole('link', { name: 'View Plans' })).toHaveAttribute(
      'href',
      '/subscription',
    );
    await expect(banner.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute(
      'href',
      '/subscription',
    );
    await shot(page, 'desktop-listener');
    if (SHOTS) {
      await page.locator('main').evaluate((m) => m.scrollTo(0, 650));
      await shot(page, 'desktop-listener-2');
      await page.locator('main').evaluate((m) => m.scrollTo(0, m.scrollHeight));
      await shot(page, 'desktop-listener-3');
    }
  });

  test('a Recently Added cover plays with the 8 as the queue, and pauses on a second click', async ({
    page,
  }) => {
    await openHome(page, DEMO.listener);
    const recent = section(page, 'Recently Added');
    const first = recent.getByRole('listitem').first();
    const title = (await first.getByRole('link').textContent())!;
    await first.getByRole('button', { name: `Play ${title}` }).click();
    await expect(first.getByRole('button', { name: `Pause ${title}` })).toBeVisible();
    await first.getByRole('button', { name: `Pause ${title}` }).click();
    await expect(first.getByRole('button', { name: `Play ${title}` })).toBeVisible();
  });

  test('the premium account sees its plan and no upgrade banner', async ({ page }) => {
    await openHome(page, DEMO.premium);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Pablo');
    await expect(statValue(page, 'Current Plan')).toHaveText('Premium', LOADED);
    await expect(section(page, 'Recently Added').getByRole('listitem')).toHaveCount(8);
    await expect(page.getByRole('link', { name: 'Upgrade Now' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'View Plans' })).toHaveCount(0);
  });

  test('when get-recommendations fails, the panel says so (logged only)', async ({ page }) => {
    await page.route('**/functions/v1/get-recommendations', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
    );
    await openHome(page, DEMO.listener);
    await expect(
      section(page, 'Recommended For You').getByText(
        'No recommendations yet. Listen to more music to get suggestions.',
        { exact: true },
      ),
    ).toBeVisible(LOADED);
    await expect(section(page, 'Recently Added').getByRole('listitem')).toHaveCount(8);
  });
});

test.describe('home, fresh users', () => {
  test('a new user: zero stats, Free, empty playlists and activity, recommendations still there', async ({
    page,
  }) => {
    await signInAsNewUser(page, 'Nova Newcomer');
    await expect(statValue(page, 'Current Plan')).toBeVisible(LOADED);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Nova');
    for (const label of ['Your Tracks', 'Liked Songs', 'Playlists'])
      await expect(statValue(page, label)).toHaveText('0');
    await expect(statValue(page, 'Current Plan')).toHaveText('Free');
    await expect(page.getByRole('link', { name: 'Upgrade Now' })).toBeVisible();

    const friends = section(page, 'Friends Activity');
    await expect(friends.getByText('No activity yet', { exact: true })).toBeVisible(LOADED);
    await expect(
      friends.getByText('Follow some friends to see their listening activity here.', {
        exact: true,
      }),
    ).toBeVisible();
    // No history: the catalogue's first 5 seed the function, which still suggests tracks.
    await expect(section(page, 'Recommended For You').getByRole('listitem').first()).toBeVisible(
      LOADED,
    );
    await shot(page, 'desktop-new-user');

    const mine = section(page, 'Your Playlists');
    await expect(mine.getByText('No playlists yet.')).toBeVisible();
    await mine.getByRole('link', { name: 'Create playlist' }).click();
    await expect(page).toHaveURL(/\/library\?create=playlist$/);
  });

  test('Your Playlists shows the 5 newest of 6', async ({ page, request }) => {
    const user = await createUser(request, 'Petra Playlists');
    const api = await restAs(request, user);
    for (let i = 1; i <= 6; i++) {
      await api.insert('playlists', {
        name: `Mix ${i}`,
        created_by: user.id,
        created_at: new Date(Date.UTC(2026, 0, i)).toISOString(),
      });
    }
    await openHome(page, user.email, user.password);
    await expect(statValue(page, 'Playlists')).toHaveText('6', LOADED);
    const cards = section(page, 'Your Playlists').getByRole('listitem');
    await expect(cards).toHaveCount(5, LOADED);
    await expect(cards.first()).toContainText('Mix 6');
    await expect(cards.last()).toContainText('Mix 2');
  });

  test('follow, the friend listens, Friends Activity shows it', async ({ page, request }) => {
    const [me, friend] = await Promise.all([
      createUser(request, 'Fran Follower'),
      createUser(request, 'Gus Groove'),
    ]);
    const [track] = await serverRows<TrackRow>(
      request,
      'tracks?select=id,title&order=created_at.asc&limit=1',
    );
    await (
      await restAs(request, me)
    ).insert('followers', {
      follower_id: me.id,
      following_id: friend.id,
    });
    await (
      await restAs(request, friend)
    ).insert('listening_history', {
      user_id: friend.id,
      track_id: track!.id,
    });
    await openHome(page, me.email, me.password);
    const activity = section(page, 'Friends Activity').getByRole('listitem');
    await expect(activity).toHaveCount(1, LOADED);
    await expect(activity.getByRole('link', { name: 'Gus Groove' })).toHaveAttribute(
      'href',
      `/profile/${friend.id}`,
    );
    await expect(activity.getByRole('link', { name: track!.title })).toHaveAttribute(
      'href',
      `/track/${track!.id}`,
    );
    await expect(activity).toContainText('listened to');
    await activity.getByRole('button', { name: `Play ${track!.title}` }).click();
    await expect(activity.getByRole('button', { name: `Pause ${track!.title}` })).toBeVisible();
  });
});

test.describe('home on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('shelves scroll sideways, the page does not', async ({ page }) => {
    await openHome(page, DEMO.listener);
    const shelf = section(page, 'Recently Added').getByRole('list', {
      name: 'Recently added tracks',
    });
    await expect(shelf.getByRole('listitem')).toHaveCount(8);
    const { scrollWidth, clientWidth } = await shelf.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(statValue(page, 'Current Plan')).toHaveText('Free');
    await expect(section(page, 'Recommended For You').getByRole('listitem').first()).toBeVisible(
      LOADED,
    );
    await shot(page, 'mobile-listener');
    if (SHOTS) {
      await page.locator('main').evaluate((m) => m.scrollTo(0, 700));
      await shot(page, 'mobile-listener-2');
      await page.locator('main').evaluate((m) => m.scrollTo(0, 1500));
      await shot(page, 'mobile-listener-3');
    }
  });
});
