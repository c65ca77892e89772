/**
 * Tracks a listener may not see (still processing, failed, or taken down by an admin) stay out
 * of everything that lists, finds or counts tracks for listeners, including the security definer
 * functions that bypass RLS (migration 20261126200000): recommend_tracks, increment_track_plays,
 * add_track_to_playlist, and search_tracks through RLS. Per role: anon, the uploader, another
 * user (a listener), an admin.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { asRole, type JwtClaims } from '../../server/db/as-role';
import { attempt } from '../../server/db/test-attempt';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import {
  createAdmin,
  createPlaylist,
  createTrack,
  createUser,
  serveAudio,
  type TestUser,
} from '../../server/db/test-factories';

const test = useTestDatabase();
const ANON: JwtClaims = { role: 'anon' };
let uploader: TestUser;
let listener: TestUser;
let admin: TestUser;
/** One track per state, all by `uploader`, all in the genre 'Hiddenwave'. */
const tracks: Record<'ready' | 'processing' | 'failed' | 'takenDown', string> = {
  ready: '',
  processing: '',
  failed: '',
  takenDown: '',
};
const HIDDEN = ['processing', 'failed', 'takenDown'] as const;

beforeAll(async () => {
  uploader = await createUser(test.db, { name: 'Hidden Uploader', established: true });
  listener = await createUser(test.db, { established: true });
  admin = await createAdmin(test.db, { established: true });
  const make = (title: string, status: 'ready' | 'processing' | 'failed') =>
    createTrack(test.db, uploader, { title, artist: 'Hidden Artist', genre: 'Hiddenwave', status });
  tracks.ready = (await make('Ready one', 'ready')).id;
  tracks.processing = (await make('Processing one', 'processing')).id;
  tracks.failed = (await make('Failed one', 'failed')).id;
  tracks.takenDown = (await make('Taken down one', 'ready')).id;
  await test.db.query(
    `update public.tracks set taken_down_at = now(), takedown_reason = 'Copyright claim.'
      where id = $1`,
    [tracks.takenDown],
  );
  // Popular enough to head any fallback ranking, were it not hidden.
  await test.db.query(`update public.tracks set plays = 1000000 where uploaded_by = $1`, [
    uploader.id,
  ]);
}, DATABASE_HOOK_TIMEOUT_MS);

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

async function recommend(claims: JwtClaims, played: string[] = []): Promise<string[]> {
  return asRole(test.db, claims, async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `select id from public.recommend_tracks(played_ids => $1::uuid[], seed_genres => '{Hiddenwave}', max_results => 50)`,
      [played],
    );
    return ids(rows);
  });
}

async function search(claims: JwtClaims): Promise<string[]> {
  return asRole(test.db, claims, async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `select id from public.search_tracks('one', 1000) where uploaded_by = $1`,
      [uploader.id],
    );
    return ids(rows);
  });
}

/** A listen after the server served the whole track (docs/plays.md). */
async function play(claims: JwtClaims, trackId: string, session: string): Promise<boolean> {
  if (typeof claims.sub === 'string') await serveAudio(test.db, claims.sub, trackId);
  return asRole(test.db, claims, async (tx) => {
    const { rows } = await tx.query<{ counted: boolean }>(
      'select public.increment_track_plays(track_id => $1, session_id => $2) as counted',
      [trackId, session],
    );
    return rows[0]!.counted;
  });
}

/** What a play leaves behind, for one track: its count, its uploader's money, history, events. */
async function traces(trackId: string) {
  const { rows } = await test.db.query<Record<string, string>>(
    `select (select plays from public.tracks where id = $1)::text as plays,
            (select count(*) from public.earnings_ledger where track_id = $1)::text as ledger,
            (select count(*) from public.listening_history where track_id = $1)::text as history,
            (select count(*) from public.play_events where track_id = $1)::text as events`,
    [trackId],
  );
  return rows[0]!;
}

describe(`recommend_tracks leaves hidden tracks out (${testDatabaseKind()})`, () => {
  it.each([
    ['anon', () => ANON],
    ['a listener', () => listener.claims],
    ['an admin', () => admin.claims],
  ])('for %s: the ready track, never a processing, failed or taken-down one', async (_, who) => {
    const got = await recommend(who());
    expect(got).toContain(tracks.ready);
    for (const state of HIDDEN) expect(got).not.toContain(tracks[state]);
  });

  it('for the uploader: never their own tracks, hidden or not', async () => {
    const got = await recommend(uploader.claims);
    for (const id of Object.values(tracks)) expect(got).not.toContain(id);
  });

  it('a hidden track sent as just played seeds nothing', async () => {
    const other = await createUser(test.db);
    await createTrack(test.db, other, { title: 'Same artist', artist: 'Seedy Artist' });
    const hiddenSeed = await createTrack(test.db, other, {
      title: 'Hidden seed',
      artist: 'Seedy Artist',
      status: 'processing',
    });
    const asSeed = await asRole(test.db, listener.claims, async (tx) => {
      const { rows } = await tx.query<{ title: string }>(
        `select title from public.recommend_tracks(played_ids => $1::uuid[], max_results => 50)`,
        [[hiddenSeed.id]],
      );
      return rows.map((r) => r.title);
    });
    // Ranked by plays like everything else, not lifted by the hidden track's artist.
    expect(asSeed.indexOf('Same artist')).toBeGreaterThan(asSeed.indexOf('Ready one'));
    expect(asSeed).not.toContain('Hidden seed');
  });
});

describe(`search_tracks follows RLS (${testDatabaseKind()})`, () => {
  it('anon and a listener find only the ready track', async () => {
    expect(await search(ANON)).toEqual([tracks.ready]);
    expect(await search(listener.claims)).toEqual([tracks.ready]);
  });

  it('the uploader and an admin find all four', async () => {
    expect((await search(uploader.claims)).sort()).toEqual(Object.values(tracks).sort());
    expect((await search(admin.claims)).sort()).toEqual(Object.values(tracks).sort());
  });
});

describe(`increment_track_plays counts no hidden track (${testDatabaseKind()})`, () => {
  it('anon may not call it at all', async () => {
    expect(
      await attempt(test.db, ANON, 'select public.increment_track_plays($1)', [tracks.ready]),
    ).toBe('denied');
  });

  it.each(HIDDEN)(
    '%s: a listener, an admin and the uploader play it; nothing is counted, paid or recorded',
    async (state) => {
      const id = tracks[state];
      const before = await traces(id);
      expect(await play(listener.claims, id, `l-${state}`)).toBe(false);
      expect(await play(admin.claims, id, `a-${state}`)).toBe(false);
      expect(await play(uploader.claims, id, `u-${state}`)).toBe(false);
      expect(await traces(id)).toEqual(before);
    },
  );

  it('the ready track counts for a listener and an admin (and pays its uploader)', async () => {
    const before = await traces(tracks.ready);
    expect(await play(listener.claims, tracks.ready, 'l-ready')).toBe(true);
    expect(await play(admin.claims, tracks.ready, 'a-ready')).toBe(true);
    const after = await traces(tracks.ready);
    expect(Number(after.plays) - Number(before.plays)).toBe(2);
    expect(Number(after.ledger) - Number(before.ledger)).toBe(2);
  });

  it('a track taken down after a listen was queued: the late play is not counted', async () => {
    const track = await createTrack(test.db, uploader, { title: 'Soon removed' });
    expect(await play(listener.claims, track.id, 'before')).toBe(true);
    await test.db.query(`update public.tracks set taken_down_at = now() where id = $1`, [track.id]);
    expect(await play(listener.claims, track.id, 'after')).toBe(false);
    expect((await traces(track.id)).plays).toBe('1');
  });

  it('an unknown track is still an error (404)', async () => {
    expect(
      await attempt(test.db, listener.claims, 'select public.increment_track_plays($1)', [
        '00000000-0000-4000-8000-000000000000',
      ]),
    ).toBe('error PT404');
  });
});

describe(`add_track_to_playlist takes only tracks the caller may see (${testDatabaseKind()})`, () => {
  const add = (who: TestUser, playlist: string, track: string) =>
    attempt(test.db, who.claims, 'select public.add_track_to_playlist($1, $2)', [playlist, track]);

  it('a listener: the ready track, not a hidden one (as if it did not exist)', async () => {
    const playlist = await createPlaylist(test.db, listener);
    expect(await add(listener, playlist, tracks.ready)).toBe('ok');
    for (const state of HIDDEN)
      expect(await add(listener, playlist, tracks[state])).toBe('error PT404');
  });

  it('the uploader: their own tracks in any state; an admin: any track', async () => {
    const own = await createPlaylist(test.db, uploader);
    const admins = await createPlaylist(test.db, admin);
    for (const state of HIDDEN) {
      expect(await add(uploader, own, tracks[state])).toBe('ok');
      expect(await add(admin, admins, tracks[state])).toBe('ok');
    }
  });
});
