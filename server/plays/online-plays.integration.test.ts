/**
 * Online plays on the real server, driven with supabase-js (docs/plays.md; issue 23's attacks):
 * the audio is fetched through signed URLs as the player fetches it, the storage app records
 * what it served, and increment_track_plays counts a listen only from that evidence. Each attack
 * ends with no counted play and no money moved; honest listening counts exactly once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../db/test-database';
import type { TestUser } from '../db/test-factories';
import { startPlaysHarness, type PlaysHarness } from './test-support';

let h: PlaysHarness;
let artist: TestUser;

beforeAll(async () => {
  h = await startPlaysHarness();
  artist = await h.newUser();
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(() => h?.close(), DATABASE_HOOK_TIMEOUT_MS);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Fetches `range` (or the whole file) of the signed URL, reading every byte. */
async function fetchAudio(url: string, range?: [number, number]): Promise<number> {
  const res = await fetch(
    url,
    range ? { headers: { Range: `bytes=${range[0]}-${range[1]}` } } : {},
  );
  expect(res.status).toBe(range ? 206 : 200);
  return (await res.arrayBuffer()).byteLength;
}

async function listen(user: TestUser, path: string): Promise<void> {
  await fetchAudio(await h.signedUrl(user, path));
  await h.plays.settled();
}

/** What counted plays leave: the track's count, and the uploader's ledger for it. */
async function money(trackId: string) {
  const { rows } = await h.db.query<{ plays: number; entries: number; amount: string | null }>(
    `select t.plays::int,
            (select count(*)::int from earnings_ledger l where l.track_id = t.id) as entries,
            (select sum(amount)::text from earnings_ledger l where l.track_id = t.id) as amount
       from tracks t where t.id = $1`,
    [trackId],
  );
  return rows[0]!;
}

async function refusals(user: TestUser, trackId: string): Promise<(string | null)[]> {
  const { rows } = await h.db.query<{ refusal: string | null }>(
    'select refusal from play_events where listener_id = $1 and track_id = $2 order by created_at, id',
    [user.id, trackId],
  );
  return rows.map((r) => r.refusal);
}

describe(`online plays from served audio (${testDatabaseKind()})`, { timeout: 120_000 }, () => {
  it('honest: 30 s of a 40 s track fetched in Range requests as it plays counts exactly once', async () => {
    const track = await h.newTrack(artist, 40);
    const listener = await h.newUser();
    const url = await h.signedUrl(listener, track.path);
    const size = (await fetch(url, { method: 'HEAD' })).headers.get('content-length');
    const bytesPerSecond = Number(size) / 40;
    // What a media element does: a few seconds ahead, then more as playback advances.
    for (let second = 0; second < 35; second += 5) {
      const start = Math.floor(second * bytesPerSecond);
      const end = Math.min(Number(size) - 1, Math.floor((second + 5) * bytesPerSecond) - 1);
      await fetchAudio(url, [start, end]);
      if (second < 30) await sleep(5_000);
    }
    await h.plays.settled();
    const { data, error } = await h.client(listener).rpc('increment_track_plays', {
      track_id: track.id,
      session_id: randomUUID(),
    });
    expect(error).toBeNull();
    expect(data).toBe(true);
    expect(await money(track.id)).toEqual({ plays: 1, entries: 1, amount: '0.0021' });
    const { rows } = await h.db.query<{ served_seconds: number }>(
      'select served_seconds from play_events where listener_id = $1',
      [listener.id],
    );
    expect(rows[0]!.served_seconds).toBeGreaterThanOrEqual(30);
  });

  it('honest: a track shorter than 30 s counts once played to its end', async () => {
    const track = await h.newTrack(artist, 3);
    const listener = await h.newUser();
    await listen(listener, track.path);
    await sleep(3_000);
    const played = await h.client(listener).rpc('increment_track_plays', { track_id: track.id });
    expect(played).toMatchObject({ data: true, error: null });
    expect(await money(track.id)).toEqual({ plays: 1, entries: 1, amount: '0.0021' });
    // The listener's history shows it.
    const history = await h.client(listener).from('listening_history').select('track_id');
    expect(history.data).toEqual([{ track_id: track.id }]);
  });

  it('attack: calls without any audio served count nothing', async () => {
    const track = await h.newTrack(artist, 3);
    const listener = await h.newUser();
    const client = h.client(listener);
    for (let i = 0; i < 5; i++) {
      const { data, error } = await client.rpc('increment_track_plays', {
        track_id: track.id,
        session_id: `forged-${i}`,
      });
      expect(error).toBeNull();
      expect(data).toBe(false);
    }
    expect(await money(track.id)).toEqual({ plays: 0, entries: 0, amount: null });
    expect(await refusals(listener, track.id)).toEqual(Array(5).fill('no_audio_served'));
    // No history for listens the server never saw.
    expect((await client.from('listening_history').select('id')).data).toEqual([]);
  });

  it('attack: one listen, then rapid re-sign-ins and forged session ids, counts once', async () => {
    const track = await h.newTrack(artist, 3);
    const listener = await h.newUser();
    await listen(listener, track.path);
    await sleep(3_000);
    const results: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      const { data } = await h
        .signIn(listener)
        .rpc('increment_track_plays', { track_id: track.id });
      results.push(data === true);
    }
    for (let i = 0; i < 3; i++) {
      const { data } = await h.client(listener).rpc('increment_track_plays', {
        track_id: track.id,
        session_id: randomUUID(),
      });
      results.push(data === true);
    }
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await money(track.id)).toEqual({ plays: 1, entries: 1, amount: '0.0021' });
  });

  it('attack: backdated played_at mints no plays on earlier days', async () => {
    const track = await h.newTrack(artist, 3);
    const listener = await h.newUser();
    const results: boolean[] = [];
    // Two real listens, each claiming to be from an earlier day.
    for (const day of [1, 2]) {
      await listen(listener, track.path);
      await sleep(3_000);
      const { data } = await h.client(listener).rpc('increment_track_plays', {
        track_id: track.id,
        session_id: `day-${day}`,
        played_at: new Date(Date.now() - day * 86_400_000).toISOString(),
      });
      results.push(data === true);
    }
    expect(results).toEqual([true, true]);
    const { rows } = await h.db.query<{ today: boolean }>(
      `select played_at > now() - interval '5 minutes' as today from play_events
        where listener_id = $1`,
      [listener.id],
    );
    expect(rows).toEqual([{ today: true }, { today: true }]);
  });

  it('attack: a whole 3-minute track fetched in one go and "listened" in 2 seconds counts nothing', async () => {
    const track = await h.newTrack(artist, 180);
    const listener = await h.newUser();
    await listen(listener, track.path);
    await sleep(2_000);
    const { data } = await h.client(listener).rpc('increment_track_plays', { track_id: track.id });
    expect(data).toBe(false);
    expect(await refusals(listener, track.id)).toEqual(['too_fast']);
    expect(await money(track.id)).toEqual({ plays: 0, entries: 0, amount: null });
  });

  it('attack: a burst of fresh accounts that really fetch the audio earns the artist nothing (held: held-plays.integration.test.ts)', async () => {
    const track = await h.newTrack(artist, 3);
    const fresh = await Promise.all([0, 1, 2, 3].map(() => h.newUser({ established: false })));
    for (const user of fresh) await listen(user, track.path);
    await sleep(3_000);
    for (const user of fresh) {
      const { data } = await h.client(user).rpc('increment_track_plays', { track_id: track.id });
      expect(data).toBe(false);
      const { rows } = await h.db.query<{ held: boolean; refusal: string | null }>(
        'select held, refusal from play_events where listener_id = $1',
        [user.id],
      );
      expect(rows).toEqual([{ held: true, refusal: null }]);
    }
    expect(await money(track.id)).toEqual({ plays: 0, entries: 0, amount: null });
  });

  it("the uploader's own listen never counts", async () => {
    const track = await h.newTrack(artist, 3);
    await listen(artist, track.path);
    await sleep(3_000);
    const { data } = await h.client(artist).rpc('increment_track_plays', { track_id: track.id });
    expect(data).toBe(false);
    expect(await money(track.id)).toEqual({ plays: 0, entries: 0, amount: null });
  });

  it('an unknown track is a 404 with PostgREST’s error, not a 500', async () => {
    const listener = await h.newUser();
    const res = await h.client(listener).rpc('increment_track_plays', { track_id: randomUUID() });
    expect(res.status).toBe(404);
    expect(res.error).toMatchObject({ code: 'PT404', message: 'Track not found' });
  });

  it('the admin fraud view lists the refused listeners and tracks', async () => {
    const admin = await h.newUser();
    await h.db.query(`insert into public.admin_emails (email) values ($1)`, [admin.email]);
    await h.db.query('select public.refresh_admins(null)');
    const listeners = await h.client(admin).rpc('admin_refused_listeners', {});
    expect(listeners.error).toBeNull();
    const reasons = new Set((listeners.data as { top_reason: string }[]).map((r) => r.top_reason));
    expect(reasons).toContain('no_audio_served');
    // A new account's listens are held, not refused (held-plays.integration.test.ts).
    expect(reasons).not.toContain('new_account');
    const tracks = await h.client(admin).rpc('admin_refused_tracks', { p_limit: 5 });
    expect(tracks.error).toBeNull();
    expect((tracks.data as unknown[]).length).toBeGreaterThan(0);
    // Not for anyone else.
    const listener = await h.newUser();
    const denied = await h.client(listener).rpc('admin_refused_listeners', {});
    expect(denied.error).toMatchObject({ code: '42501' });
  });
});
