/**
 * Artist insights through REST with supabase-js (docs/insights.md): an artist reads their own
 * aggregates only; another artist's track is a 404; no answer names a listener (id, e-mail or
 * name), the insights tables are closed to every API role, and figures of fewer than 5
 * listeners are merged away. The listens are arranged as the server records them (served
 * audio, judged plays with their sources), today: the live part of the window.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTrack, createUser, type TestUser } from '../../server/db/test-factories';
import { startTarget, type Target } from './support/target';

let t: Target;
let artistA: TestUser;
let artistB: TestUser;
let trackA: string;
let trackB: string;
const listeners: TestUser[] = [];

const options = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as never },
};
const as = (user: TestUser | null): SupabaseClient =>
  createClient(t.url, t.keys.anonKey, {
    ...options,
    ...(user ? { global: { headers: { Authorization: `Bearer ${t.token(user)}` } } } : {}),
  });

/** A listen of `listener`: `seconds` of a 100 s track served from the start over that time, counted. */
async function listen(listener: TestUser, track: string, seconds: number, source: string) {
  const { rows } = await t.db.query<{ id: string }>(
    `insert into public.play_events (listener_id, track_id, session_id, counted)
     values ($1, $2, gen_random_uuid()::text, true) returning id`,
    [listener.id, track],
  );
  await t.db.query(`insert into public.play_sources (event_id, source) values ($1, $2)`, [
    rows[0]!.id,
    source,
  ]);
  await t.db.query(
    `insert into public.served_audio (listener_id, track_id, object, object_size, bytes,
        first_served_at, last_served_at, claimed_at, claimed_by)
     values ($1, $2, 'renditions/x/standard.mp3', 100000, int8multirange(int8range(0, $3)),
             now() - make_interval(secs => $4), now(), now(), $5)`,
    [listener.id, track, seconds * 1000, seconds, rows[0]!.id],
  );
}

beforeAll(async () => {
  t = await startTarget();
  artistA = await createUser(t.db, { established: true, name: 'Artist A' });
  artistB = await createUser(t.db, { established: true, name: 'Artist B' });
  trackA = (await createTrack(t.db, artistA, { duration: 100, title: 'A song' })).id;
  trackB = (await createTrack(t.db, artistB, { duration: 100, title: 'B song' })).id;
  for (let i = 0; i < 6; i++)
    listeners.push(await createUser(t.db, { established: true, name: `Listener ${i}` }));
  // Track B: 6 listeners (enough for a curve), from explore; one came by search (merged away).
  for (const [i, l] of listeners.entries())
    await listen(l, trackB, 20 + i * 10, i === 0 ? 'search' : 'explore');
  // Track A: 2 listeners only.
  await listen(listeners[0]!, trackA, 50, 'explore');
  await listen(listeners[1]!, trackA, 80, 'explore');
  await t.db.query(`insert into public.followers (follower_id, following_id) values ($1, $2)`, [
    listeners[2]!.id,
    artistB.id,
  ]);
});
afterAll(async () => {
  await t?.close();
});

/** No trace of any listener in an answer. */
function expectNoListener(body: unknown) {
  const text = JSON.stringify(body);
  for (const l of listeners) {
    expect(text).not.toContain(l.id);
    expect(text).not.toContain(l.email);
    expect(text).not.toContain(l.name);
  }
}

describe('artist insights through REST', () => {
  it('an artist reads their own track: aggregates, a curve from 100 % down, no listener', async () => {
    const { data, error } = await as(artistB).rpc('artist_insights', {
      p_period: '7d',
      p_track: trackB,
    });
    expect(error).toBeNull();
    expect(data.totals.plays).toBe(6);
    expect(data.totals.listeners).toBe(6);
    const shares = (data.curve as { share: number }[]).map((p) => p.share);
    expect(shares[0]).toBe(100);
    for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeLessThanOrEqual(shares[i - 1]!);
    expect(shares.at(-1)).toBeLessThan(100);
    // 5 from explore; the one from search (fewer than 5 listeners) is merged into 'other' and,
    // alone there, not shown.
    expect(data.sources).toEqual([{ source: 'explore', plays: 5 }]);
    expectNoListener(data);
  });

  it("another artist's track is a 404, their catalogue is not in mine", async () => {
    const theirs = await as(artistA).rpc('artist_insights', { p_period: '30d', p_track: trackB });
    expect(theirs.error?.code).toBe('PT404');
    expect(theirs.data).toBeNull();
    const mine = await as(artistA).rpc('artist_insights', { p_period: '30d' });
    expect(mine.error).toBeNull();
    expect(mine.data.totals.plays).toBe(2);
    expect(JSON.stringify(mine.data)).not.toContain(trackB);
    expectNoListener(mine.data);
  });

  it('under 5 listeners: no curve, no sources, no skip rate', async () => {
    const { data } = await as(artistA).rpc('artist_insights', { p_period: '7d', p_track: trackA });
    expect(data.curve).toBeNull();
    expect(data.sources).toEqual([]);
    expect(data.totals.skip_rate).toBeNull();
  });

  it('anon is refused, and a bad period is a 400', async () => {
    const anon = await as(null).rpc('artist_insights', { p_period: '7d' });
    expect(anon.error?.code).toBe('42501');
    const bad = await as(artistA).rpc('artist_insights', { p_period: 'forever' });
    expect(bad.error?.code).toBe('22023');
  });

  it('no insights table, nor the evidence behind it, is readable by an artist', async () => {
    for (const table of [
      'insights_daily',
      'insights_artist_daily',
      'insights_sources_daily',
      'insights_track_listeners',
      'insights_artist_listeners',
      'insights_rollup_days',
      'play_sources',
      'play_source_notes',
      'playlist_track_adds',
      'served_audio',
    ]) {
      const { data, error } = await as(artistB).from(table).select('*');
      expect(error, table).not.toBeNull();
      expect(data, table).toBeNull();
    }
    // The listeners of their track are not in play_events for the artist either.
    const events = await as(artistB)
      .from('play_events')
      .select('listener_id')
      .eq('track_id', trackB);
    expect(events.data ?? []).toEqual([]);
  });

  it('the answer itself holds no bucket, source or playlist figure of fewer than 5 listeners', async () => {
    // Track C: 5 listeners from explore 3 days ago; today 2 of them again and 2 new ones from a
    // playlist (2 listeners) and from search (1 listener, with a listener of 3 days ago).
    const artistC = await createUser(t.db, { established: true, name: 'Artist C' });
    const trackC = (await createTrack(t.db, artistC, { duration: 100, title: 'C song' })).id;
    const more = [
      await createUser(t.db, { established: true, name: 'Listener 6' }),
      await createUser(t.db, { established: true, name: 'Listener 7' }),
    ];
    listeners.push(...more);
    const { rows: pl } = await t.db.query<{ id: string }>(
      `insert into public.playlists (name, created_by, track_ids) values ('Mix', $1, array[$2::uuid])
       returning id`,
      [more[0]!.id, trackC],
    );
    const play = async (l: TestUser, daysAgo: number, source: string, playlist?: string) => {
      const { rows } = await t.db.query<{ id: string }>(
        `insert into public.play_events (listener_id, track_id, session_id, counted, played_at, created_at)
         values ($1, $2, gen_random_uuid()::text, true, now() - make_interval(days => $3),
                 now() - make_interval(days => $3)) returning id`,
        [l.id, trackC, daysAgo],
      );
      await t.db.query(
        `insert into public.play_sources (event_id, source, playlist_id) values ($1, $2, $3)`,
        [rows[0]!.id, source, playlist ?? null],
      );
    };
    for (const l of listeners.slice(0, 5)) await play(l, 3, 'explore');
    for (const l of more) await play(l, 0, 'playlist', pl[0]!.id);
    await play(listeners[0]!, 0, 'search');
    await play(listeners[1]!, 0, 'explore');

    type Bucket = { plays: number | null; listeners: number | null; hidden?: boolean };
    for (const period of ['7d', '30d', '90d', '12m'])
      for (const track of [undefined, trackC]) {
        const { data, error } = await as(artistC).rpc('artist_insights', {
          p_period: period,
          ...(track ? { p_track: track } : {}),
        });
        expect(error).toBeNull();
        const text = JSON.stringify(data);
        expect(text).not.toContain('mins');
        expectNoListener(data);
        for (const b of data.series as Bucket[]) {
          if (b.hidden) {
            // a span still under 5 (not here: the window has 7) would carry no figure at all
            expect(b).toMatchObject({ plays: null, listeners: null, earnings: null });
          } else if (b.plays !== 0 || b.listeners !== 0) {
            expect(b.listeners, `${period} ${JSON.stringify(b)}`).toBeGreaterThanOrEqual(5);
          }
        }
        // 7 distinct listeners, never the sum of the days' 5 + 4
        const active = (data.series as Bucket[]).filter((b) => b.plays);
        expect(active.map((b) => b.listeners)).toEqual([7]);
        // explore has 6 listeners; the playlist's 2 and search's 1 are 'other' (3): not shown
        expect(data.sources).toEqual([{ source: 'explore', plays: 6 }]);
        expect(data.playlists).toEqual([{ id: pl[0]!.id, name: 'Mix', plays: null }]);
      }

    // Track A's window has 2 listeners: its only span is hidden, without figures.
    const { data } = await as(artistA).rpc('artist_insights', { p_period: '7d', p_track: trackA });
    expect(data.series).toHaveLength(1);
    expect(data.series[0]).toMatchObject({ hidden: true, plays: null, listeners: null });
    expect(data.totals.avg_listen_seconds).toBeNull();
    expect(data.totals.listeners).toBeNull();
  });

  it('record_play_source keeps a source only for a listen with evidence, and checks the playlist', async () => {
    const l = listeners[3]!;
    const none = await as(l).rpc('record_play_source', {
      track_id: trackA,
      session_id: 'no-such-listen',
      source: 'offline',
    });
    expect(none.error?.code).toBe('22023'); // offline is the server's word, never the client's
    const wrongList = await as(l).rpc('record_play_source', {
      track_id: trackA,
      session_id: 's',
      source: 'playlist',
      playlist_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(wrongList.error?.code).toBe('22023');
    // A source told before the listen is judged waits; a listen refused without evidence drops it.
    const early = await as(l).rpc('record_play_source', {
      track_id: trackA,
      session_id: 'later',
      source: 'search',
    });
    expect(early.error).toBeNull();
    expect(early.data).toBe(false);
    await t.db.query(
      `insert into public.play_events (listener_id, track_id, session_id, counted, refusal)
       values ($1, $2, 'later', false, 'no_audio_served')`,
      [l.id, trackA],
    );
    const kept = await t.db.query(
      `select count(*)::int as n from public.play_sources s join public.play_events e on e.id = s.event_id
        where e.session_id = 'later'`,
    );
    expect(kept.rows[0]).toEqual({ n: 0 });
  });
});
