/**
 * Privileged columns are never writable by users (DESIGN.md §2): profiles.subscription_plan,
 * balance, stripe_customer_id, monthly_uploads (and email, followers); tracks.verified (admins
 * only), plays; withdrawals.status. Each attack runs as the row's owner, through asRole.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { asRole } from '../../server/db/as-role';
import { attempt } from '../../server/db/test-attempt';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import {
  createAdmin,
  createAudioObject,
  createPlaylist,
  createTrack,
  createUser,
  type TestUser,
} from '../../server/db/test-factories';

const test = useTestDatabase();
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let trackId: string;

beforeAll(async () => {
  owner = await createUser(test.db);
  other = await createUser(test.db);
  admin = await createAdmin(test.db);
  trackId = (await createTrack(test.db, owner)).id;
}, DATABASE_HOOK_TIMEOUT_MS);
const PROFILE_ATTACKS: [string, string][] = [
  ['subscription_plan', `update profiles set subscription_plan = 'premium' where id = $1`],
  ['balance', 'update profiles set balance = 1000 where id = $1'],
  ['stripe_customer_id', `update profiles set stripe_customer_id = 'cus_x' where id = $1`],
  ['monthly_uploads', 'update profiles set monthly_uploads = 0 where id = $1'],
  [
    'monthly_uploads_month',
    `update profiles set monthly_uploads_month = '2000-01-01' where id = $1`,
  ],
  ['followers', 'update profiles set followers = 1000000 where id = $1'],
  ['email', `update profiles set email = 'someone@else.test' where id = $1`],
  ['id', 'update profiles set id = gen_random_uuid() where id = $1'],
  [
    'upsert of subscription_plan',
    `insert into profiles (id, name, subscription_plan) values ($1, 'Me', 'premium')
     on conflict (id) do update set subscription_plan = excluded.subscription_plan`,
  ],
  [
    'upsert of balance',
    `insert into profiles (id, name, balance) values ($1, 'Me', 99)
     on conflict (id) do update set balance = excluded.balance`,
  ],
];

describe(`privileged columns (${testDatabaseKind()})`, () => {
  for (const [column, sql] of PROFILE_ATTACKS) {
    it(`profiles.${column} cannot be written by its owner or an admin`, async () => {
      expect(await attempt(test.db, owner.claims, sql, [owner.id])).toBe('denied');
      expect(await attempt(test.db, admin.claims, sql, [owner.id])).toBe('denied');
    });
  }

  it('lets a user upsert the columns they own, shaped as PostgREST does (every sent column, key included, in the SET)', async () => {
    const upsert = (table: string, columns: string[], conflict: string, values: string) =>
      `insert into ${table} (${columns.join(', ')}) values (${values})
       on conflict (${conflict}) do update set ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}`;
    const profile = upsert(
      'profiles',
      ['id', 'name', 'bio', 'avatar_url', 'social_links'],
      'id',
      `$1, 'New name', 'Bio', 'a.png', '{"twitter":"@me"}'`,
    );
    expect(await attempt(test.db, owner.claims, profile, [owner.id])).toBe('ok');
    const lyrics = upsert(
      'track_lyrics',
      ['track_id', 'lyrics', 'is_synced', 'language', 'last_edited_by'],
      'track_id',
      `$1, '[{"text":"Hi","timestamp":0}]', true, 'en', $2`,
    );
    expect(await attempt(test.db, owner.claims, lyrics, [trackId, owner.id])).toBe('ok');
    const playlist = upsert(
      'playlists',
      ['id', 'name', 'created_by', 'track_ids'],
      'id',
      `$1, 'Mix', $2, '{}'`,
    );
    const playlistId = await createPlaylist(test.db, owner);
    expect(await attempt(test.db, owner.claims, playlist, [playlistId, owner.id])).toBe('ok');
    expect(await attempt(test.db, other.claims, playlist, [playlistId, other.id])).toBe('denied');
  });

  it('never lets a key change, although upserts need update grants on keys', async () => {
    const playlistId = await createPlaylist(test.db, owner);
    const attacks: [string, unknown[]][] = [
      ['update profiles set id = gen_random_uuid() where id = $1', [owner.id]],
      ['update tracks set id = gen_random_uuid() where id = $1', [trackId]],
      ['update tracks set uploaded_by = $2 where id = $1', [trackId, other.id]],
      ['update playlists set id = gen_random_uuid() where id = $1', [playlistId]],
      ['update playlists set created_by = $2 where id = $1', [playlistId, other.id]],
    ];
    for (const [sql, params] of attacks) {
      expect(await attempt(test.db, owner.claims, sql, params), sql).toBe('denied');
      // Admins may not update others' playlists at all (hidden); elsewhere the key guard denies.
      expect(['denied', 'hidden'], sql).toContain(
        await attempt(test.db, admin.claims, sql, params),
      );
    }
  });

  it('lets the service role (Stripe webhooks, server functions) change the plan', async () => {
    const sql = `update profiles set subscription_plan = 'premium', stripe_customer_id = 'cus_1' where id = $1`;
    expect(await attempt(test.db, { role: 'service_role' }, sql, [owner.id])).toBe('ok');
  });

  it('keeps profiles.email equal to the auth e-mail', async () => {
    await test.db.query(`update auth.users set email = $2 where id = $1`, [
      owner.id,
      `renamed-${owner.email}`,
    ]);
    const { rows } = await test.db.query('select email from profiles where id = $1', [owner.id]);
    expect(rows[0]).toEqual({ email: `renamed-${owner.email}` });
  });

  it('tracks.plays is never writable by users', async () => {
    expect(
      await attempt(test.db, owner.claims, 'update tracks set plays = 1000000 where id = $1', [
        trackId,
      ]),
    ).toBe('denied');
    expect(
      await attempt(test.db, admin.claims, 'update tracks set plays = 1000000 where id = $1', [
        trackId,
      ]),
    ).toBe('denied');
    const insert = `insert into tracks (title, artist, audio_url, uploaded_by, plays) values ('T', 'A', 'x.mp3', $1, 500)`;
    expect(await attempt(test.db, owner.claims, insert, [owner.id])).toBe('denied');
  });

  it('tracks.verified is changed by admins only; new tracks start pending with 0 plays (the spec insert shape works)', async () => {
    const approve = 'update tracks set verified = true where id = $1';
    expect(await attempt(test.db, owner.claims, approve, [trackId])).toBe('denied');
    expect(await attempt(test.db, other.claims, approve, [trackId])).toBe('hidden');
    expect(await attempt(test.db, admin.claims, approve, [trackId])).toBe('ok');
    const insertVerified = `insert into tracks (title, artist, audio_url, uploaded_by, verified) values ('T', 'A', 'x.mp3', $1, true)`;
    expect(await attempt(test.db, owner.claims, insertVerified, [owner.id])).toBe('denied');
    const specShape = `insert into tracks (title, artist, album, genre, duration, audio_url, cover_image, uploaded_by, plays, verified, created_at)
                       values ('T', 'A', null, 'Pop', 181, 'tracks/' || $2, null, $1, 0, false, '2001-01-01')`;
    const audio = await createAudioObject(test.db, owner);
    expect(await attempt(test.db, owner.claims, specShape, [owner.id, audio])).toBe('ok');
  });

  it('server-side timestamps: created_at is the server clock whatever the client sends', async () => {
    const row = await asRole(test.db, owner.claims, async (tx) => {
      const { rows } = await tx.query<{ created_at: string; updated_at: string; now: string }>(
        `insert into playlists (name, created_by, created_at, updated_at) values ('P', $1, '2001-01-01', '2001-01-01')
         returning created_at, updated_at, now()::text as now`,
        [owner.id],
      );
      return rows[0]!;
    });
    expect(row.created_at.slice(0, 4)).not.toBe('2001');
    expect(row.updated_at).toBe(row.created_at);
  });

  it('money moves only through functions: the ledger writer and admin sync are not callable by users', async () => {
    const post = `select public.post_ledger_entry($1, 100, 'play')`;
    expect(await attempt(test.db, owner.claims, post, [owner.id])).toBe('denied');
    expect(await attempt(test.db, admin.claims, post, [owner.id])).toBe('denied');
    expect(
      await attempt(test.db, owner.claims, 'select public.sync_admin_emails($1)', [[owner.email]]),
    ).toBe('denied');
    expect(await attempt(test.db, owner.claims, 'select public.refresh_admins(null)')).toBe(
      'denied',
    );
    expect(await attempt(test.db, null, 'select public.increment_track_plays($1)', [trackId])).toBe(
      'denied',
    );
  });

  it('a profile features only its own track and its own playlist', async () => {
    const othersTrack = (await createTrack(test.db, other)).id;
    const othersPlaylist = await createPlaylist(test.db, other);
    const ownPlaylist = await createPlaylist(test.db, owner);
    const setTrack = 'update profiles set featured_track = $2 where id = $1';
    const setPlaylist = 'update profiles set featured_playlist = $2 where id = $1';
    expect(await attempt(test.db, owner.claims, setTrack, [owner.id, othersTrack])).toBe('denied');
    expect(await attempt(test.db, owner.claims, setTrack, [owner.id, trackId])).toBe('ok');
    expect(await attempt(test.db, owner.claims, setPlaylist, [owner.id, othersPlaylist])).toBe(
      'denied',
    );
    expect(await attempt(test.db, owner.claims, setPlaylist, [owner.id, ownPlaylist])).toBe('ok');
  });

  it('refuses a JWT whose role is not an API role', async () => {
    await expect(asRole(test.db, { role: 'postgres' }, async () => 1)).rejects.toThrow(
      'role "postgres" does not exist',
    );
  });
});
