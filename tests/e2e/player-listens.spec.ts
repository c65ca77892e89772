/**
 * Listen recording (spec 4, DECISIONS.md 'what counts as a play', docs/plays.md) end to end, in
 * real time: a listen is 30 s of real playback or the whole track when shorter, so each test
 * lets the shortest seeded track play through, nothing skipped or seeked. The server counts it
 * from the audio the player fetched through its signed URL; checked on the server.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from './support/test';
import { PlayerPage } from './support/player-page';
import { DEMO, DEMO_PASSWORD, serverRows, serviceRoleKey, signIn } from './support/session';

test.describe.configure({ timeout: 200_000 });

interface TrackRow {
  id: string;
  title: string;
  duration: number;
  plays: number;
  uploaded_by: string;
}

const TRACK_COLUMNS = 'select=id,title,duration,plays,uploaded_by';

async function plays(page: Page, trackId: string): Promise<number> {
  const [row] = await serverRows<TrackRow>(page.request, `tracks?select=plays&id=eq.${trackId}`);
  return row?.plays ?? -1;
}

/** Plays `title` from /explore and waits, in real time, until it has played to its end. */
async function playThrough(player: PlayerPage, track: TrackRow): Promise<void> {
  await player.rowPlayButton(track.title).click();
  await player.expectBarTitle(track.title);
  await player.expectAudioAdvancing();
  // At its end the track gives way (to the next result, or to nothing): its row says Play again.
  await expect(player.rowPlayButton(track.title)).toBeVisible({
    timeout: (track.duration + 30) * 1000,
  });
}

/**
 * An established account nobody else signs in as: a catalogue artist of the seed (joined weeks
 * ago, e-mail confirmed: a new account's plays do not earn, docs/plays.md), given a password of
 * this run through the admin API, as an operator would.
 */
async function establishedListener(
  request: APIRequestContext,
  notUploaderOf: TrackRow,
): Promise<{ id: string; email: string; password: string }> {
  const [user] = await serverRows<{ id: string; email: string }>(
    request,
    `profiles?select=id,email&email=like.*%40artists.soundloft.local&id=neq.${notUploaderOf.uploaded_by}&order=email.asc&limit=1`,
  );
  if (!user) throw new Error('No catalogue artist');
  const password = `e2e-${randomUUID()}`;
  const key = serviceRoleKey();
  const res = await request.put(`/auth/v1/admin/users/${user.id}`, {
    headers: { apikey: key, authorization: `Bearer ${key}` },
    data: { password },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return { ...user, password };
}

test('a listen is counted once from the audio the player fetched, also after a replay', async ({
  page,
}) => {
  const [artist] = await serverRows<{ id: string }>(
    page.request,
    `profiles?select=id&email=eq.${DEMO.artist}`,
  );
  // The shortest track not by the demo artist (whose tracks other specs play as the uploader).
  const [track] = await serverRows<TrackRow>(
    page.request,
    `tracks?${TRACK_COLUMNS}&uploaded_by=neq.${artist?.id}&order=duration.asc,id.asc&limit=1`,
  );
  if (!track) throw new Error('No seeded track');
  const user = await establishedListener(page.request, track);
  const since = new Date().toISOString();
  await signIn(page, user.email, user.password);
  const player = new PlayerPage(page);
  await player.openExplore(track.title);
  const before = await plays(page, track.id);

  await playThrough(player, track);
  // (The seed gave the account earlier listens: only this test's count.)
  const history = `listening_history?select=track_id&user_id=eq.${user.id}&listened_at=gte.${encodeURIComponent(since)}`;
  await expect
    .poll(async () => (await serverRows<{ track_id: string }>(page.request, history)).length, {
      timeout: 20_000,
    })
    .toBe(1);
  expect((await serverRows<{ track_id: string }>(page.request, history))[0]?.track_id).toBe(
    track.id,
  );
  expect(await plays(page, track.id)).toBe(before + 1);
  // Counted from evidence: the server had served the whole track to this listener.
  const events = await serverRows<{
    counted: boolean;
    refusal: string | null;
    served_seconds: number;
  }>(
    page.request,
    `play_events?select=counted,refusal,served_seconds&listener_id=eq.${user.id}&track_id=eq.${track.id}&created_at=gte.${encodeURIComponent(since)}`,
  );
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ counted: true, refusal: null });
  expect(events[0]!.served_seconds).toBeGreaterThanOrEqual(track.duration - 1);

  // The same track again in the same session: no second listen.
  await playThrough(player, track);
  await page.waitForTimeout(5_000);
  expect(await serverRows(page.request, history)).toHaveLength(1);
  expect(await plays(page, track.id)).toBe(before + 1);
});

test('the uploader playing their own track records nothing', async ({ page }) => {
  const [artist] = await serverRows<{ id: string }>(
    page.request,
    `profiles?select=id&email=eq.${DEMO.artist}`,
  );
  if (!artist) throw new Error('No demo artist');
  const [track] = await serverRows<TrackRow>(
    page.request,
    `tracks?${TRACK_COLUMNS}&uploaded_by=eq.${artist.id}&verified=eq.true&order=duration.asc&limit=1`,
  );
  if (!track) throw new Error('The demo artist has no verified track');
  const since = new Date().toISOString();
  await signIn(page, DEMO.artist, DEMO_PASSWORD);
  const player = new PlayerPage(page);
  await player.openExplore(track.title);
  const before = await plays(page, track.id);

  await playThrough(player, track);
  await page.waitForTimeout(5_000);
  const rows = await serverRows(
    page.request,
    `listening_history?select=id&user_id=eq.${artist.id}&track_id=eq.${track.id}&listened_at=gte.${encodeURIComponent(since)}`,
  );
  expect(rows).toHaveLength(0);
  expect(await plays(page, track.id)).toBe(before);
});
