/**
 * add_track_to_playlist (atomic, idempotent, creator only), the monthly upload limit of the
 * uploader's plan, the profile created for every new auth user, and schema checks.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getPlan } from '../../src/lib/plans';
import { asRole, type JwtClaims } from '../../server/db/as-role';
import { attempt, sqlStateOf } from '../../server/db/test-attempt';
import { testDatabaseKind } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import {
  createAudioObject,
  createPlaylist,
  createTrack,
  createUser,
  type TestUser,
} from '../../server/db/test-factories';

const test = useTestDatabase();

function addToPlaylist(claims: JwtClaims, playlistId: string, trackId: string): Promise<string[]> {
  return asRole(test.db, claims, async (tx) => {
    const { rows } = await tx.query<{ ids: string[] }>(
      'select public.add_track_to_playlist(playlist_id => $1, track_id => $2) as ids',
      [playlistId, trackId],
    );
    return rows[0]!.ids;
  });
}

const UPLOAD_LIMIT_MESSAGE =
  'You have reached your monthly upload limit. Upgrade your plan to upload more tracks.';

describe(`add_track_to_playlist (${testDatabaseKind()})`, () => {
  it('appends a track once; adding it again does nothing; concurrent adds do not lose tracks', async () => {
    const owner = await createUser(test.db);
    const tracks = await Promise.all(Array.from({ length: 6 }, () => createTrack(test.db, owner)));
    const playlist = await createPlaylist(test.db, owner);
    const [a, b] = [tracks[0]!.id, tracks[1]!.id];
    expect(await addToPlaylist(owner.claims, playlist, a)).toEqual([a]);
    expect(await addToPlaylist(owner.claims, playlist, a)).toEqual([a]);
    expect(await addToPlaylist(owner.claims, playlist, b)).toEqual([a, b]);
    await Promise.all(tracks.slice(2).map((t) => addToPlaylist(owner.claims, playlist, t.id)));
    await Promise.all(tracks.map((t) => addToPlaylist(owner.claims, playlist, t.id)));
    const { rows } = await test.db.query<{ track_ids: string[] }>(
      'select track_ids from playlists where id = $1',
      [playlist],
    );
    expect(rows[0]!.track_ids.slice(0, 2)).toEqual([a, b]);
    expect([...rows[0]!.track_ids].sort()).toEqual(tracks.map((t) => t.id).sort());
  });

  it("only works on the caller's own playlist", async () => {
    const owner = await createUser(test.db);
    const other = await createUser(test.db);
    const track = await createTrack(test.db, owner);
    const playlist = await createPlaylist(test.db, owner);
    const error = await addToPlaylist(other.claims, playlist, track.id).catch((e: unknown) => e);
    expect(sqlStateOf(error)).toBe('PT404');
    expect(
      await attempt(test.db, null, 'select public.add_track_to_playlist($1, $2)', [
        playlist,
        track.id,
      ]),
    ).toBe('denied');
    const missing = await addToPlaylist(owner.claims, playlist, randomUUID()).catch(
      (e: unknown) => e,
    );
    expect(sqlStateOf(missing)).toBe('PT404');
  });

  it('removes a deleted track from every playlist, and refuses duplicates written directly', async () => {
    const owner = await createUser(test.db);
    const [t1, t2] = [await createTrack(test.db, owner), await createTrack(test.db, owner)];
    const playlist = await createPlaylist(test.db, owner, [t1.id, t2.id]);
    await test.db.query('delete from tracks where id = $1', [t1.id]);
    const { rows } = await test.db.query('select track_ids from playlists where id = $1', [
      playlist,
    ]);
    expect(rows[0]).toEqual({ track_ids: [t2.id] });
    const dup = `update playlists set track_ids = array[$2::uuid, $2::uuid] where id = $1`;
    expect(await attempt(test.db, owner.claims, dup, [playlist, t2.id])).toBe('error 23514');
  });
});

describe(`monthly upload limit (${testDatabaseKind()})`, () => {
  const insert = `insert into tracks (title, artist, audio_url, uploaded_by) values ('T', 'A', 'tracks/' || $2, $1)`;

  /** An upload: the audio object (as the storage API stores it), then the track row. */
  async function uploadAs(claims: JwtClaims, userId: string): Promise<void> {
    const audio = await createAudioObject(test.db, { id: userId } as TestUser);
    await asRole(test.db, claims, (tx) => tx.query(insert, [userId, audio]));
  }

  it("refuses the upload beyond the plan's limit with the spec's message (P0001), and counts monthly_uploads", async () => {
    const user = await createUser(test.db);
    const limit = getPlan('free').monthlyUploadLimit!;
    // Start just below the limit (as if uploaded earlier this month), then upload for real.
    await test.db.query('update profiles set monthly_uploads = $2 where id = $1', [
      user.id,
      limit - 1,
    ]);
    await uploadAs(user.claims, user.id);
    const error = await uploadAs(user.claims, user.id).catch((e: unknown) => e);
    expect(sqlStateOf(error)).toBe('P0001');
    expect((error as Error).message).toBe(UPLOAD_LIMIT_MESSAGE);
    const { rows } = await test.db.query(
      'select monthly_uploads from profiles_private where id = $1',
      [user.id],
    );
    expect(rows).toEqual([]); // not visible to the server without a JWT: the view is per user
    const own = await asRole(test.db, user.claims, (tx) =>
      tx.query('select monthly_uploads from profiles_private'),
    );
    expect(own.rows).toEqual([{ monthly_uploads: limit }]);
  });

  it('starts counting again in a new month, and premium is unlimited', async () => {
    const user = await createUser(test.db);
    await test.db.query(
      `update profiles set monthly_uploads = 1000, monthly_uploads_month = '2000-01-01' where id = $1`,
      [user.id],
    );
    await uploadAs(user.claims, user.id);
    await test.db.query(
      `update profiles set subscription_plan = 'premium', monthly_uploads = 100000 where id = $1`,
      [user.id],
    );
    await uploadAs(user.claims, user.id);
    const { rows } = await test.db.query('select monthly_uploads from profiles where id = $1', [
      user.id,
    ]);
    expect(rows).toEqual([{ monthly_uploads: 100001 }]);
  });
});

describe(`profiles and checks (${testDatabaseKind()})`, () => {
  it('creates a free-plan profile for every new auth user, named from the sign-up metadata or e-mail', async () => {
    const named = await createUser(test.db, { metadata: { name: ' Ada Lovelace ' } });
    const google = await createUser(test.db, {
      metadata: { full_name: 'Grace Hopper', avatar_url: 'https://x/a.png' },
    });
    const bare = await createUser(test.db, {
      email: `jo.doe-${randomUUID().slice(0, 4)}@example.test`,
      metadata: {},
    });
    const { rows } = await test.db.query<{
      id: string;
      name: string;
      subscription_plan: string;
      balance: string;
      avatar_url: string | null;
    }>(
      'select id, name, subscription_plan, balance, avatar_url from profiles where id = any($1::uuid[])',
      [[named.id, google.id, bare.id]],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(named.id)).toMatchObject({
      name: 'Ada Lovelace',
      subscription_plan: 'free',
      balance: '0.0000',
    });
    expect(byId.get(google.id)).toMatchObject({
      name: 'Grace Hopper',
      avatar_url: 'https://x/a.png',
    });
    expect(byId.get(bare.id)?.name).toBe(bare.email.split('@')[0]);
  });

  it('refuses blank names and titles, negative durations, self-follows, bad lyrics, negative balances', async () => {
    const user = await createUser(test.db);
    const other = await createUser(test.db);
    const track = await createTrack(test.db, user);
    const audio = `tracks/${await createAudioObject(test.db, user)}`;
    const cases: [string, unknown[]][] = [
      [
        `insert into tracks (title, artist, audio_url, uploaded_by) values ('  ', 'A', $2, $1)`,
        [user.id, audio],
      ],
      [`insert into playlists (name, created_by) values ('   ', $1)`, [user.id]],
      [`update profiles set name = '' where id = $1`, [user.id]],
      [`insert into followers (follower_id, following_id) values ($1, $1)`, [user.id]],
      [`insert into track_lyrics (track_id, lyrics) values ($1, '{"text":"x"}')`, [track.id]],
      [`insert into track_lyrics (track_id, lyrics) values ($1, '[{"text":1}]')`, [track.id]],
      [`update profiles set social_links = '{"myspace":"x"}' where id = $1`, [user.id]],
    ];
    for (const [sql, params] of cases)
      expect(await attempt(test.db, user.claims, sql, params), sql).toBe('error 23514');
    const overdraft = await test.db
      .query(`select public.post_ledger_entry($1, -1, 'withdrawal')`, [other.id])
      .catch((e: unknown) => e);
    expect(sqlStateOf(overdraft)).toBe('23514');
  });

  it('records lyrics edits under the editor, whatever last_edited_by the client sends', async () => {
    const user = await createUser(test.db);
    const other = await createUser(test.db);
    const track = await createTrack(test.db, user);
    const row = await asRole(test.db, user.claims, async (tx) => {
      const { rows } = await tx.query(
        `insert into track_lyrics (track_id, lyrics, is_synced, language, last_edited_by)
         values ($1, '[{"id":"1","text":"Hello","timestamp":1.5}]', true, 'en', $2)
         on conflict (track_id) do update set track_id = excluded.track_id, lyrics = excluded.lyrics, is_synced = excluded.is_synced,
           language = excluded.language, last_edited_by = excluded.last_edited_by
         returning last_edited_by, language, is_synced`,
        [track.id, other.id],
      );
      return rows[0];
    });
    expect(row).toEqual({ last_edited_by: user.id, language: 'en', is_synced: true });
  });
});
