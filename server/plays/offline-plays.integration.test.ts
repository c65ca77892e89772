/**
 * Offline plays on the real server, driven with supabase-js as the offline client drives it
 * (docs/plays.md): a premium listener downloads a track through a signed URL asked as a
 * download, listens offline, and sends the listen later with its played_at through
 * record_offline_play (or the outbox's 'play.offline'). Counted exactly once when honest;
 * refused with a reason, and no money moved, for every forgery.
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

/** Downloads `path` as `user` on `device`, the whole file, as the offline client does. */
async function download(user: TestUser, path: string, device = 'device-1'): Promise<void> {
  const url = await h.signedUrl(user, path, true);
  const res = await fetch(`${url}&device=${encodeURIComponent(device)}`);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  await h.plays.settled();
}

async function offlinePlay(
  user: TestUser,
  args: { track_id: string; played_at: string; session_id?: string; device_id?: string },
) {
  return h.client(user).rpc('record_offline_play', args);
}

async function money(trackId: string) {
  const { rows } = await h.db.query<{ plays: number; balance: string; entries: number }>(
    `select t.plays::int, p.balance::text,
            (select count(*)::int from earnings_ledger l where l.track_id = t.id) as entries
       from tracks t join profiles p on p.id = t.uploaded_by where t.id = $1`,
    [trackId],
  );
  return rows[0]!;
}

async function events(user: TestUser, trackId: string) {
  const { rows } = await h.db.query<{ counted: boolean; refusal: string | null; offline: boolean }>(
    `select counted, refusal, offline from play_events
      where listener_id = $1 and track_id = $2 order by created_at`,
    [user.id, trackId],
  );
  return rows;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`offline plays (${testDatabaseKind()})`, { timeout: 60_000 }, () => {
  it('records a premium download for its user and device only; a free plan downloads nothing', async () => {
    const track = await h.newTrack(artist, 3);
    const premium = await h.newUser({ plan: 'premium' });
    const free = await h.newUser({ plan: 'free' });
    await download(premium, track.path, 'phone');
    await download(free, track.path, 'phone');

    const own = await h.client(premium).from('track_downloads').select('*');
    expect(own.error).toBeNull();
    expect(own.data).toHaveLength(1);
    expect(own.data![0]).toMatchObject({
      user_id: premium.id,
      track_id: track.id,
      device_id: 'phone',
      object: `tracks/${track.path}`,
    });
    const validity = Date.parse(own.data![0].valid_until) - Date.parse(own.data![0].downloaded_at);
    expect(Math.round(validity / 86_400_000)).toBe(30);
    // Nobody else reads it; the free listener has none.
    expect((await h.client(free).from('track_downloads').select('*')).data).toEqual([]);
    // Clients cannot write it.
    const forged = await h
      .client(free)
      .from('track_downloads')
      .insert({
        user_id: free.id,
        track_id: track.id,
        object: 'x',
        valid_until: new Date(Date.now() + 86_400_000).toISOString(),
      });
    expect(forged.error?.code).toBe('42501');
    // A download is not a listen: no evidence of listening.
    const { rows } = await h.db.query('select 1 from served_audio where listener_id = $1', [
      premium.id,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('counts an honest offline listen exactly once, synced later; a retry is a no-op', async () => {
    const track = await h.newTrack(artist, 3);
    const listener = await h.newUser({ plan: 'premium' });
    await download(listener, track.path);
    await sleep(1_100);
    const playedAt = new Date().toISOString(); // listened offline…
    await sleep(500); // …and sent on reconnect
    const before = await money(track.id);

    const first = await offlinePlay(listener, {
      track_id: track.id,
      played_at: playedAt,
      session_id: 'offline-1',
      device_id: 'device-1',
    });
    expect(first).toMatchObject({ data: true, error: null });
    const retry = await offlinePlay(listener, {
      track_id: track.id,
      played_at: playedAt,
      session_id: 'offline-1',
      device_id: 'device-1',
    });
    expect(retry).toMatchObject({ data: false, error: null });

    const after = await money(track.id);
    expect(after.plays).toBe(before.plays + 1);
    expect(after.entries).toBe(before.entries + 1);
    expect(Number(after.balance) - Number(before.balance)).toBeCloseTo(0.0021, 6);
    expect(await events(listener, track.id)).toEqual([
      { counted: true, refusal: null, offline: true },
    ]);
    const history = await h
      .client(listener)
      .from('listening_history')
      .select('track_id, listened_at');
    expect(history.data).toEqual([
      { track_id: track.id, listened_at: expect.any(String) as string },
    ]);
    expect(Date.parse(history.data![0]!.listened_at)).toBe(Date.parse(playedAt));
  });

  it('through the outbox: op play.offline is applied once', async () => {
    const track = await h.newTrack(artist, 3);
    const listener = await h.newUser({ plan: 'premium' });
    await download(listener, track.path, 'tablet');
    await sleep(1_100);
    const mutation = {
      id: randomUUID(),
      op: 'play.offline',
      args: {
        track_id: track.id,
        played_at: new Date().toISOString(),
        session_id: 'outbox-1',
        device_id: 'tablet',
      },
    };
    const client = h.client(listener);
    for (let i = 0; i < 2; i++) {
      const { data, error } = await client.rpc('apply_mutations', {
        p_client_id: 'c1',
        p_mutations: [mutation],
      });
      expect(error).toBeNull();
      expect((data as { status: string }[])[0]!.status).toBe('applied');
    }
    expect(await events(listener, track.id)).toEqual([
      { counted: true, refusal: null, offline: true },
    ]);
  });

  it('refuses, with a reason and no money, listens of tracks not downloaded, outside the window, on another device, too frequent', async () => {
    const track = await h.newTrack(artist, 3);
    const other = await h.newTrack(artist, 3);
    const listener = await h.newUser({ plan: 'premium' });
    await download(listener, track.path, 'device-1');
    const before = await money(track.id);
    const beforeOther = await money(other.id);
    const now = Date.now();
    const at = (ms: number) => new Date(now + ms).toISOString();

    // Never downloaded (the free plan's way to claim offline plays).
    expect((await offlinePlay(listener, { track_id: other.id, played_at: at(0) })).data).toBe(
      false,
    );
    // Backdated before the download, and in the future.
    expect(
      (
        await offlinePlay(listener, {
          track_id: track.id,
          played_at: at(-3_600_000),
          session_id: 'a',
        })
      ).data,
    ).toBe(false);
    expect(
      (
        await offlinePlay(listener, {
          track_id: track.id,
          played_at: at(3_600_000),
          session_id: 'b',
        })
      ).data,
    ).toBe(false);
    // Another device than the one that downloaded it.
    expect(
      (
        await offlinePlay(listener, {
          track_id: track.id,
          played_at: at(0),
          session_id: 'c',
          device_id: 'device-2',
        })
      ).data,
    ).toBe(false);
    // One honest listen, then a second one within the track's duration (3 s).
    await sleep(1_000);
    const first = new Date();
    expect(
      (
        await offlinePlay(listener, {
          track_id: track.id,
          played_at: first.toISOString(),
          session_id: 'd',
        })
      ).data,
    ).toBe(true);
    expect(
      (
        await offlinePlay(listener, {
          track_id: track.id,
          played_at: new Date(first.getTime() + 1_500).toISOString(),
          session_id: 'e',
        })
      ).data,
    ).toBe(false);

    expect((await events(listener, other.id)).map((e) => e.refusal)).toEqual(['not_downloaded']);
    expect((await events(listener, track.id)).map((e) => e.refusal)).toEqual([
      'outside_download_window',
      'outside_download_window',
      'not_downloaded',
      null,
      'too_frequent',
    ]);
    expect((await money(track.id)).plays).toBe(before.plays + 1);
    expect(await money(other.id)).toMatchObject({
      plays: beforeOther.plays,
      entries: beforeOther.entries,
    });
    expect(Number((await money(track.id)).balance) - Number(before.balance)).toBeCloseTo(0.0021, 6);
    // Refused listens without evidence leave no history.
    const history = await h.client(listener).from('listening_history').select('track_id');
    expect(history.data).toEqual([{ track_id: track.id }]);
  });

  it('a new account downloads and listens, and earns the artist nothing yet (held)', async () => {
    const track = await h.newTrack(artist, 3);
    const fresh = await h.newUser({ plan: 'premium', established: false });
    await download(fresh, track.path);
    await sleep(1_100);
    const before = await money(track.id);
    expect(
      (await offlinePlay(fresh, { track_id: track.id, played_at: new Date().toISOString() })).data,
    ).toBe(false);
    expect(await events(fresh, track.id)).toEqual([
      { counted: false, refusal: null, offline: true },
    ]);
    const { rows } = await h.db.query<{ held: boolean }>(
      'select held from play_events where listener_id = $1',
      [fresh.id],
    );
    expect(rows).toEqual([{ held: true }]);
    expect(await money(track.id)).toEqual(before);
  });

  it('renew_track_downloads extends a premium plan’s downloads and ends them after a downgrade', async () => {
    const track = await h.newTrack(artist, 3);
    const listener = await h.newUser({ plan: 'premium' });
    await download(listener, track.path, 'laptop');
    const client = h.client(listener);
    const renewed = await client.rpc('renew_track_downloads', { device_id: 'laptop' });
    expect(renewed.error).toBeNull();
    expect(renewed.data).toHaveLength(1);
    await h.db.query(`update profiles set subscription_plan = 'free' where id = $1`, [listener.id]);
    const ended = await client.rpc('renew_track_downloads', { device_id: 'laptop' });
    expect(ended).toMatchObject({ data: [], error: null });
    expect(
      (await offlinePlay(listener, { track_id: track.id, played_at: new Date().toISOString() }))
        .data,
    ).toBe(false);
  });

  it('answers an unknown track with a 404, and no session with 401', async () => {
    const listener = await h.newUser({ plan: 'premium' });
    const unknown = await offlinePlay(listener, {
      track_id: randomUUID(),
      played_at: new Date().toISOString(),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({ code: 'PT404', message: 'Track not found' });
    const anon = await h.client().rpc('record_offline_play', {
      track_id: randomUUID(),
      played_at: new Date().toISOString(),
    });
    expect(anon.status).toBe(401);
  });
});
