/**
 * Listen recording (spec 4, DECISIONS.md 'what counts as a play') end to end, in real time: a
 * listen is 30 s of real playback or the whole track when shorter, so each test lets the
 * shortest seeded track play through, nothing skipped or seeked. Checked on the server.
 */
import { expect, test, type Page } from '@playwright/test';
import { PlayerPage, signInFresh, signInWith } from './support/player-page';
import { DEMO, DEMO_PASSWORD, serverRows } from './support/session';

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

test('a listen is recorded once: one history row and plays + 1, also after a replay', async ({
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
  const user = await signInFresh(page, 'Listen Counter');
  const player = new PlayerPage(page);
  await player.openExplore(track.title);
  const before = await plays(page, track.id);

  await playThrough(player, track);
  const history = `listening_history?select=track_id&user_id=eq.${user.id}`;
  await expect
    .poll(async () => (await serverRows<{ track_id: string }>(page.request, history)).length, {
      timeout: 20_000,
    })
    .toBe(1);
  expect((await serverRows<{ track_id: string }>(page.request, history))[0]?.track_id).toBe(
    track.id,
  );
  expect(await plays(page, track.id)).toBe(before + 1);

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
  await signInWith(page, DEMO.artist, DEMO_PASSWORD);
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
