/**
 * Issue 19, Realtime in the app: two browser contexts of the same user (two devices), a like in
 * one shows in the other without reload or focus; a follower's Friends Activity shows a
 * friend's listen as it happens; a followed artist's new upload appears on their page. The
 * time it took is recorded as an annotation (figures, not a pass/fail threshold).
 */
import { expect, test, type Page, type WebSocket } from './support/test';
import { artistApi } from './support/server-upload';
import { createUser, restAs, serverRows, signIn } from './support/session';

test.describe.configure({ timeout: 180_000 });

const LOADED = { timeout: 60_000 };
/** A change made elsewhere shows within this (Realtime takes well under a second; a pull waits 5 min). */
const LIVE = { timeout: 15_000 };

/** Resolves once the page's Realtime channel named `name` is subscribed to PostgreSQL. */
function subscribedChannel(page: Page, name: string): Promise<void> {
  return new Promise((resolve) => {
    const watch = (ws: WebSocket) => {
      if (!ws.url().includes('/realtime/v1/websocket')) return;
      ws.on('framereceived', ({ payload }) => {
        const text = typeof payload === 'string' ? payload : payload.toString();
        if (text.includes(`realtime:${name}`) && text.includes('Subscribed to PostgreSQL'))
          resolve();
      });
    };
    page.on('websocket', watch);
  });
}

test('a like on one device shows on the other device of the same user', async ({
  page,
  browser,
  request,
}) => {
  const user = await createUser(request, 'Two Devices');
  const [track] = await serverRows<{ id: string; title: string }>(
    request,
    'tracks?select=id,title&order=title.asc&limit=1',
  );
  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    const firstReady = subscribedChannel(page, 'sync-');
    const secondReady = subscribedChannel(second, 'sync-');
    await signIn(page, user.email, user.password);
    await signIn(second, user.email, user.password);
    for (const p of [page, second]) {
      await p.goto(`/track/${track!.id}`);
      await expect(p.getByRole('heading', { level: 1, name: track!.title })).toBeVisible(LOADED);
    }
    await Promise.all([firstReady, secondReady]);

    await page.getByRole('button', { name: 'Save to likes' }).click();
    const started = Date.now();
    await expect(second.getByRole('button', { name: 'Added to likes' })).toBeVisible(LIVE);
    test.info().annotations.push({
      type: 'like reached the other device',
      description: `${Date.now() - started} ms after the click`,
    });
  } finally {
    await other.close();
  }
});

test('a followed friend’s listen appears in Friends Activity without reload', async ({
  page,
  request,
}) => {
  const [me, friend] = await Promise.all([
    createUser(request, 'Fay Follower'),
    createUser(request, 'Lenny Live'),
  ]);
  const [track] = await serverRows<{ id: string; title: string }>(
    request,
    'tracks?select=id,title&order=created_at.asc&limit=1',
  );
  await (
    await restAs(request, me)
  ).insert('followers', {
    follower_id: me.id,
    following_id: friend.id,
  });
  const friendsReady = subscribedChannel(page, 'friends');
  await signIn(page, me.email, me.password);
  const friends = page.getByRole('region', { name: 'Friends Activity' });
  await expect(friends.getByText('No activity yet', { exact: true })).toBeVisible(LOADED);
  await friendsReady;

  await (
    await restAs(request, friend)
  ).insert('listening_history', {
    user_id: friend.id,
    track_id: track!.id,
  });
  const started = Date.now();
  const activity = friends.getByRole('listitem');
  await expect(activity).toHaveCount(1, LIVE);
  await expect(activity.getByRole('link', { name: 'Lenny Live' })).toBeVisible();
  await expect(activity.getByRole('link', { name: track!.title })).toBeVisible();
  test.info().annotations.push({
    type: 'listen reached Friends Activity',
    description: `${Date.now() - started} ms after the insert`,
  });
});

test('a followed artist’s new upload appears on their page without reload', async ({
  page,
  request,
}) => {
  const artistName = `Rita Release ${Date.now().toString(36)}`;
  const [me, artist] = await Promise.all([
    createUser(request, 'Fred Fan'),
    createUser(request, artistName),
  ]);
  await (
    await restAs(request, me)
  ).insert('followers', {
    follower_id: me.id,
    following_id: artist.id,
  });
  const followedReady = subscribedChannel(page, 'followed-artists');
  await signIn(page, me.email, me.password);
  await page.goto(`/artist/${encodeURIComponent(artistName)}`);
  await expect(page.getByText('No tracks yet', { exact: true })).toBeVisible(LOADED);
  await followedReady;

  // The new track is visible to listeners once the server has processed it (status ready).
  const api = await artistApi(request, artist);
  const id = await api.upload('Fresh Off The Press');
  await expect.poll(async () => (await api.state(id))?.status, { timeout: 180_000 }).toBe('ready');
  const started = Date.now();
  const list = page.getByRole('table', { name: `Top tracks by ${artistName}` });
  await expect(list.getByText('Fresh Off The Press')).toBeVisible(LIVE);
  test.info().annotations.push({
    type: 'upload reached the follower’s artist page',
    description: `${Date.now() - started} ms after processing finished`,
  });
});
