/**
 * The REST bench's catalogue and requests: a small realistic Soundloft (users from the test
 * factories, tracks, follows, likes, playlists, listening history), written as the server's own
 * connection like a seed, and the five requests of issue 3 in the shapes the app sends them.
 */
import type { Database } from '../server/db/database';
import {
  createPlaylist,
  createTrack,
  createUser,
  type TestUser,
} from '../server/db/test-factories';
import { signHs256 } from '../server/keys/keys';
import type { LoadVariant } from './rest-load';
import { random } from '../server/seed/prng';

export const USERS = 20;
export const TRACKS_PER_USER = 25;
export const FOLLOWS_PER_USER = 5;
export const HISTORY_PER_USER = 100;
export const LIKES_PER_USER = 10;

export interface Catalogue {
  users: TestUser[];
  /** Access tokens of `users`, same order (Supabase-shaped claims, signed with the bench secret). */
  tokens: string[];
  tracks: { id: string; uploadedBy: number }[];
  /** follows[i]: indexes of the users user i follows. */
  follows: number[][];
  historyRows: number;
  ms: number;
}

const GENRES = ['ambient', 'rock', 'jazz', 'hip hop', 'electronic', 'folk', 'classical', 'pop'];

export async function seedCatalogue(db: Database, jwtSecret: string): Promise<Catalogue> {
  const started = performance.now();
  const rnd = random(42);
  const pick = (n: number) => Math.floor(rnd() * n);
  const users: TestUser[] = [];
  for (let i = 0; i < USERS; i++) users.push(await createUser(db, { name: `Artist ${i + 1}` }));
  // One statement per track: each gets its own created_at (set by trigger from the clock).
  const tracks: Catalogue['tracks'] = [];
  for (let t = 0; t < TRACKS_PER_USER; t++) {
    for (let u = 0; u < USERS; u++) {
      const user = users[u] as TestUser;
      const row = await createTrack(db, user, {
        title: `Track ${t + 1} by ${user.name}`,
        album: t % 3 === 0 ? null : `Album ${Math.floor(t / 5) + 1}`,
        genre: GENRES[pick(GENRES.length)] ?? null,
        duration: 120 + pick(300),
      });
      tracks.push({ id: row.id, uploadedBy: u });
    }
  }
  const follows = users.map((_, i) =>
    Array.from({ length: FOLLOWS_PER_USER }, (_, k) => (i + 1 + k) % USERS),
  );
  const ids = (rows: Record<string, unknown>[]) => JSON.stringify(rows);
  await db.query(
    `insert into public.followers (follower_id, following_id)
     select follower_id, following_id from json_to_recordset($1::json) as r(follower_id uuid, following_id uuid)`,
    [
      ids(
        follows.flatMap((list, i) =>
          list.map((j) => ({ follower_id: users[i]?.id, following_id: users[j]?.id })),
        ),
      ),
    ],
  );
  const likes: Record<string, unknown>[] = [];
  for (const user of users) {
    const chosen = new Set<number>();
    while (chosen.size < LIKES_PER_USER) chosen.add(pick(tracks.length));
    for (const t of chosen) likes.push({ user_id: user.id, track_id: tracks[t]?.id });
  }
  await db.query(
    `insert into public.liked_tracks (user_id, track_id)
     select user_id, track_id from json_to_recordset($1::json) as r(user_id uuid, track_id uuid)`,
    [ids(likes)],
  );
  const now = Date.now();
  const history: Record<string, unknown>[] = [];
  for (const user of users) {
    for (let k = 0; k < HISTORY_PER_USER; k++) {
      history.push({
        user_id: user.id,
        track_id: tracks[pick(tracks.length)]?.id,
        listened_at: new Date(now - pick(14 * 24 * 3600) * 1000).toISOString(),
      });
    }
  }
  await db.query(
    `insert into public.listening_history (user_id, track_id, listened_at)
     select user_id, track_id, listened_at
     from json_to_recordset($1::json) as r(user_id uuid, track_id uuid, listened_at timestamptz)`,
    [ids(history)],
  );
  for (const [i, user] of users.entries()) {
    const own = tracks.filter((t) => t.uploadedBy === i).map((t) => t.id);
    await createPlaylist(db, user, own.slice(0, 10));
    await createPlaylist(db, user, own.slice(10, 20));
  }
  // The planner sees the data as autovacuum would have analysed it in a running system.
  await db.exec('analyze');
  const tokens = users.map((u) => signHs256(u.claims, jwtSecret));
  return {
    users,
    tokens,
    tracks,
    follows,
    historyRows: history.length,
    ms: performance.now() - started,
  };
}

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers: Record<string, string>;
  variants: LoadVariant[];
  /** Checks the probe response; returns a short description of what came back. */
  check: (status: number, body: string) => string;
}

function expectArray(length: number) {
  return (status: number, body: string) => {
    const rows: unknown = status === 200 ? JSON.parse(body) : null;
    if (!Array.isArray(rows) || rows.length !== length)
      throw new Error(`expected 200 with ${length} rows, got ${status} ${body.slice(0, 200)}`);
    return `${length} row${length === 1 ? '' : 's'}`;
  };
}

/** The five requests of issue 3, each cycled over many users and rows. */
export function scenarios(c: Catalogue, anonKey: string): Scenario[] {
  const rnd = random(7);
  const base = { apikey: anonKey, Accept: 'application/json' };
  const json = { ...base, 'Content-Type': 'application/json' };
  const everyUser = c.users.map((u, i) => ({ token: i, vars: { uid: u.id } }));
  // Listener × track pairs, shuffled: the play rule records a new listen and counts it (a
  // handful of calls per pair and run, under the 10 counted per day). Listeners only play
  // tracks of users after them in the list: two users playing each other's tracks at the same
  // moment deadlock on PostgreSQL (FK key-share on the listener's profile, then FOR UPDATE of
  // the uploader's in post_ledger_entry), which would measure deadlock_timeout, not the API.
  const plays: LoadVariant[] = [];
  for (const track of c.tracks)
    for (let u = 0; u < track.uploadedBy; u++) plays.push({ token: u, vars: { track: track.id } });
  for (let i = plays.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [plays[i], plays[j]] = [plays[j] as LoadVariant, plays[i] as LoadVariant];
  }
  return [
    {
      name: 'GET track by id (RLS)',
      method: 'GET',
      path: '/rest/v1/tracks?id=eq.{{track}}&select=*',
      headers: base,
      variants: c.tracks.map((t, i) => ({ token: i % c.users.length, vars: { track: t.id } })),
      check: expectArray(1),
    },
    {
      name: 'GET 50 tracks newest first',
      method: 'GET',
      path: '/rest/v1/tracks?select=*&order=created_at.desc&limit=50',
      headers: base,
      variants: everyUser,
      check: expectArray(50),
    },
    {
      // Spec §7 friends activity: the followed users' history with their profile and the track,
      // newest first, 10; embeds named by their FK constraints (hints). RLS lets a follower read.
      name: 'GET friends activity, 2 embeds',
      method: 'GET',
      path:
        '/rest/v1/listening_history?select=*,profiles!listening_history_user_id_fkey(id,name,avatar_url),' +
        'tracks!listening_history_track_id_fkey(*)' +
        `&user_id=in.(${Array.from({ length: FOLLOWS_PER_USER }, (_, k) => `{{f${k}}}`).join(',')})` +
        '&order=listened_at.desc&limit=10',
      headers: base,
      variants: c.follows.map((list, i) => ({
        token: i,
        vars: Object.fromEntries(list.map((j, k) => [`f${k}`, c.users[j]?.id ?? ''])),
      })),
      check: expectArray(10),
    },
    {
      name: 'POST playlist (as owner)',
      method: 'POST',
      path: '/rest/v1/playlists',
      body: '{"name":"Bench mix {{n}}","description":"","created_by":"{{uid}}","track_ids":[]}',
      headers: { ...json, Prefer: 'return=representation' },
      variants: everyUser,
      check: (status, body) => {
        if (status !== 201) throw new Error(`expected 201, got ${status} ${body.slice(0, 200)}`);
        return 'created';
      },
    },
    {
      name: 'RPC increment_track_plays',
      method: 'POST',
      path: '/rest/v1/rpc/increment_track_plays',
      body: '{"track_id":"{{track}}","session_id":"bench-{{n}}"}',
      headers: json,
      variants: plays,
      // No audio was served to the listener (docs/plays.md), so the play is judged and recorded
      // in play_events as refused ('no_audio_served'): 200 false, the whole function still runs.
      check: (status, body) => {
        if (status !== 200 || (body !== 'true' && body !== 'false'))
          throw new Error(
            `expected 200 true or false (a judged play), got ${status} ${body.slice(0, 200)}`,
          );
        return body === 'true' ? 'counted' : 'judged, refused';
      },
    },
  ];
}
