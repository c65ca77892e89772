/**
 * Faults in the browser (docs/faults.md; runs in the main e2e run, not in test:faults): writes
 * made while the browser is offline; back online, the tab is closed while its outbox replays
 * (the batch reached the server and was applied, the answer never came back); a new tab of the
 * same user finishes the replay. The server deduplicates it: each write is there exactly once.
 */
import { expect, test } from './support/test';
import { goOffline, syncIndicator } from './support/offline';
import { serverRows, signInAsNewUser } from './support/session';
import { waitForServiceWorker } from './support/service-worker';

interface TrackRow {
  id: string;
  title: string;
}
interface Mutation {
  id: string;
  op: string;
}
interface Result {
  id: string;
  status: string;
  duplicate?: boolean;
}

const slow = expect.configure({ timeout: 20_000 });
const indicator = syncIndicator;

test('a tab closed mid-replay: a new tab finishes it, the server holds each write once', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const tracks = await serverRows<TrackRow>(
    page.request,
    'tracks?select=id,title&order=title.asc&limit=2',
  );
  expect(tracks).toHaveLength(2);
  const playlistName = `Replay Mix ${Date.now().toString(36)}`;

  const user = await signInAsNewUser(page, 'Replay Listener');
  await waitForServiceWorker(page);
  await page.goto(`/track/${tracks[0]!.id}`);
  await slow(page.getByRole('heading', { level: 1, name: tracks[0]!.title })).toBeVisible();
  await slow(indicator(page)).toHaveText('Synced');

  const goOnline = await goOffline(context);
  await slow(indicator(page)).toHaveText('Offline');

  for (const [i, track] of tracks.entries()) {
    if (i > 0) await page.goto(`/track/${track.id}`);
    await slow(page.getByRole('heading', { level: 1, name: track.title })).toBeVisible();
    await page.getByRole('button', { name: 'Save to likes' }).click();
    await slow(page.getByRole('button', { name: 'Added to likes' })).toBeVisible();
  }
  await page.goto('/library?create=playlist');
  await page.getByLabel('Playlist Name').fill(playlistName);
  await page.getByRole('button', { name: 'Create Playlist' }).click();
  await slow(page.getByRole('link', { name: new RegExp(playlistName) })).toBeVisible();

  // Back online: the batch reaches the server, which applies it; the tab closes before the
  // answer arrives.
  let sent: Mutation[] = [];
  let reached!: () => void;
  const atServer = new Promise<void>((resolve) => (reached = resolve));
  await page.route('**/rest/v1/rpc/apply_mutations', async (route) => {
    sent = (route.request().postDataJSON() as { p_mutations: Mutation[] }).p_mutations;
    const response = await route.fetch();
    expect(response.status()).toBe(200);
    reached();
    // No answer: the tab is closed meanwhile.
  });
  await goOnline();
  await atServer;
  await page.close();
  expect(sent.map((m) => m.op).sort()).toEqual(['like.add', 'like.add', 'playlist.create']);

  // The server has applied the batch once already.
  const likes = () =>
    serverRows<{ track_id: string }>(
      context.request,
      `liked_tracks?select=track_id&user_id=eq.${user.id}&order=track_id`,
    );
  const expectedLikes = tracks
    .map((t) => ({ track_id: t.id }))
    .sort((a, b) => a.track_id.localeCompare(b.track_id));
  expect(await likes()).toEqual(expectedLikes);

  // A new tab of the same user: its engine finds the entries still queued and sends them again.
  const second = await context.newPage();
  const replayed: Result[] = [];
  second.on('response', (response) => {
    if (response.url().includes('/rest/v1/rpc/apply_mutations') && response.ok()) {
      void response.json().then(
        (body: Result[]) => replayed.push(...body),
        () => undefined,
      );
    }
  });
  await second.goto('/library?tab=playlists');
  await slow(indicator(second)).toHaveText('Synced');
  await slow(second.getByRole('link', { name: new RegExp(playlistName) })).toBeVisible();
  await expect.poll(() => replayed.length).toBe(sent.length);
  // Every replayed mutation was recognised as already applied: nothing ran twice.
  expect(replayed.map((r) => [r.id, r.status, r.duplicate]).sort()).toEqual(
    sent.map((m) => [m.id, 'applied', true]).sort(),
  );

  expect(await likes()).toEqual(expectedLikes);
  const playlists = await serverRows<{ name: string }>(
    context.request,
    `playlists?select=name&created_by=eq.${user.id}`,
  );
  expect(playlists).toEqual([{ name: playlistName }]);
  const log = await serverRows<{ mutation_id: string }>(
    context.request,
    `sync_mutations?select=mutation_id&user_id=eq.${user.id}`,
  );
  expect(log.map((r) => r.mutation_id).sort()).toEqual(sent.map((m) => m.id).sort());
  console.log(
    `faults, tab closed mid-replay: writes made ${sent.length}; applied before the tab closed ${sent.length}; ` +
      `replayed by the new tab ${replayed.length}, deduplicated ${replayed.filter((r) => r.duplicate).length}; ` +
      `on the server: ${(await likes()).length} likes, ${playlists.length} playlist (lost 0, duplicated 0)`,
  );
});
