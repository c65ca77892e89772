/**
 * Test factories: users (auth.users rows, as the auth server creates them), their JWT claims,
 * tracks and playlists. They write as the server's own connection (no RLS), like a seed would.
 */
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from './database';
import type { JwtClaims } from './as-role';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  /** The claims of an access token of this user, as the auth server issues them. */
  claims: JwtClaims;
}

export interface UserOverrides {
  email?: string;
  name?: string;
  confirmed?: boolean;
  /**
   * Created two days ago (default: now). A play earns its artist money only from an account
   * older than public.new_account_age() (docs/plays.md).
   */
  established?: boolean;
  metadata?: Record<string, unknown>;
}

export function claimsFor(id: string, email: string, sessionId: string = randomUUID()): JwtClaims {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: id,
    role: 'authenticated',
    aud: 'authenticated',
    email,
    session_id: sessionId,
    iat: now,
    exp: now + 3600,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
  };
}

export async function createUser(db: Queryable, overrides: UserOverrides = {}): Promise<TestUser> {
  const id = randomUUID();
  const email = overrides.email ?? `user-${id.slice(0, 8)}@example.test`;
  const name = overrides.name ?? `User ${id.slice(0, 8)}`;
  const metadata = overrides.metadata ?? { name };
  await db.query(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                             raw_app_meta_data, raw_user_meta_data)
     values ($1, 'authenticated', 'authenticated', $2, 'x', case when $3 then now() end,
             '{"provider":"email","providers":["email"]}', $4)`,
    [id, email, overrides.confirmed ?? true, JSON.stringify(metadata)],
  );
  if (overrides.established)
    await db.query(`update auth.users set created_at = now() - interval '2 days' where id = $1`, [
      id,
    ]);
  return { id, email, name, claims: claimsFor(id, email) };
}

export interface TrackRow {
  id: string;
  title: string;
  uploaded_by: string;
  plays: string;
  verified: boolean;
}

/**
 * An audio object in the tracks bucket as the storage API leaves it after its checks (the row
 * only; no bytes). Returns its name; a track's audio_url is `tracks/<name>`.
 */
export async function createAudioObject(
  db: Queryable,
  owner: TestUser,
  file = `${Date.now()}_${randomUUID().slice(0, 8)}.mp3`,
): Promise<string> {
  const name = `${owner.id}/${file}`;
  await db.query(
    `insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
     values ('tracks', $1, $2::uuid, $3, '{"mimetype":"audio/mpeg","size":1}')`,
    [name, owner.id, owner.id],
  );
  return name;
}

export async function createTrack(
  db: Queryable,
  uploader: TestUser,
  overrides: Partial<{
    title: string;
    artist: string;
    album: string | null;
    genre: string | null;
    duration: number;
    /** Default 'ready', as if the upload pipeline had processed it. */
    status: 'processing' | 'ready' | 'failed';
  }> = {},
): Promise<TrackRow> {
  const { rows } = await db.query<TrackRow>(
    `insert into public.tracks (title, artist, album, genre, duration, audio_url, uploaded_by, status)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     returning id, title, uploaded_by, plays, verified`,
    [
      overrides.title ?? 'A track',
      overrides.artist ?? uploader.name,
      overrides.album ?? null,
      overrides.genre ?? null,
      overrides.duration ?? 180,
      `${uploader.id}/1700000000000_track.mp3`,
      uploader.id,
      overrides.status ?? 'ready',
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('track not created');
  return row;
}

export async function createPlaylist(
  db: Queryable,
  owner: TestUser,
  trackIds: string[] = [],
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.playlists (name, created_by, track_ids) values ('Mix', $1, $2::uuid[]) returning id`,
    [owner.id, trackIds],
  );
  if (!rows[0]) throw new Error('playlist not created');
  return rows[0].id;
}

/** A confirmed user whose address is in the admin list. */
export async function createAdmin(
  db: Database,
  overrides: Pick<UserOverrides, 'established'> = {},
): Promise<TestUser> {
  const email = `admin-${randomUUID().slice(0, 8)}@example.test`;
  await db.query(`insert into public.admin_emails (email) values ($1) on conflict do nothing`, [
    email,
  ]);
  return createUser(db, { ...overrides, email, name: 'Admin' });
}

/** A user whose balance is `amount` EUR, credited through the ledger's one writer. */
export async function createUserWithBalance(db: Queryable, amount: string): Promise<TestUser> {
  const user = await createUser(db);
  await db.query(`select public.post_ledger_entry($1, $2::numeric, 'play')`, [user.id, amount]);
  return user;
}

/**
 * Evidence that the server served `fraction` of a track's audio to `listenerId`, the first byte
 * `secondsAgo` seconds ago: the served_audio row the storage app's signed reads leave
 * (server/plays/evidence.ts), written directly for tests of what is judged from it.
 */
export async function serveAudio(
  db: Queryable,
  listenerId: string,
  trackId: string,
  { secondsAgo = 120, fraction = 1 }: { secondsAgo?: number; fraction?: number } = {},
): Promise<void> {
  const size = 1_000_000;
  await db.query(
    `insert into public.served_audio
       (listener_id, track_id, object, object_size, bytes, first_served_at, last_served_at)
     values ($1, $2, 'tracks/test-audio.mp3', $3, int8multirange(int8range(0, $4)),
             now() - make_interval(secs => $5), now() - make_interval(secs => $5))
     on conflict (listener_id, track_id, object) where claimed_at is null do update
       set bytes = excluded.bytes, first_served_at = excluded.first_served_at,
           last_served_at = excluded.last_served_at`,
    [listenerId, trackId, size, Math.round(size * fraction), secondsAgo],
  );
}
