/**
 * How each mirrored table is pulled: its server table, scope, cursor and key, and how a row maps
 * to the mirror. Keys are the outbox keys (likes `${userId}:${trackId}`, follows
 * `${followerId}:${followingId}`), which are also the server's tombstone keys.
 */
import {
  deleteExisting,
  putChanged,
  toFollow,
  toLike,
  toPlaylist,
  toTrack,
  toWithdrawal,
  type Entity,
  type FollowRow,
  type LikeRow,
  type MirrorStore,
  type PlaylistRow,
  type SoundloftDb,
  type TrackRow,
  type WithdrawalRow,
} from '../db';
import type { RemoteTable } from './types';

type Raw = Record<string, unknown>;

export interface PullSpec {
  name: 'tracks' | 'playlists' | 'likes' | 'follows' | 'withdrawals';
  remote: RemoteTable;
  cursor: 'updated_at' | 'created_at';
  tieBreak: string;
  /** Pending writes of this entity keep the local row. */
  entity: Entity | null;
  scope(userId: string): [string, string][];
  keyOf(row: Raw): string;
  /**
   * Writes `rows` to the mirror. `quiet` (an incremental pull): only the rows that differ from the
   * mirror's, and only keys it holds are deleted, so a pull that changes nothing wakes no live
   * query (putChanged).
   */
  put(db: SoundloftDb, rows: Raw[], quiet: boolean): Promise<void>;
  remove(db: SoundloftDb, keys: string[], quiet: boolean): Promise<void>;
  /** The keys the mirror holds in this scope (for a full reload). */
  localKeys(db: SoundloftDb, userId: string): Promise<string[]>;
}

const pair = (key: string): [string, string] => {
  const [a = '', b = ''] = key.split(':');
  return [a, b];
};

/** Writes rows (quietly: only changed ones) and deletes keys (quietly: only stored ones). */
function writer<T extends I, K extends string | [string, string], I>(
  table: (db: SoundloftDb) => MirrorStore<T, K, I>,
  toLocal: (row: Raw) => T,
  keyOf: (row: T) => K,
  dexieKey: (key: string) => K,
): Pick<PullSpec, 'put' | 'remove'> {
  return {
    put: async (db, rows, quiet) => {
      const local = rows.map(toLocal);
      if (quiet) await putChanged(table(db), local, keyOf);
      else if (local.length) await table(db).bulkPut(local);
    },
    remove: async (db, keys, quiet) => {
      const local = keys.map(dexieKey);
      if (quiet) await deleteExisting(table(db), local);
      else if (local.length) await table(db).bulkDelete(local);
    },
  };
}

const same = (key: string) => key;

export const PULL_SPECS: PullSpec[] = [
  {
    name: 'tracks',
    remote: 'tracks',
    cursor: 'updated_at',
    tieBreak: 'id',
    entity: null,
    scope: () => [],
    keyOf: (r) => String(r.id),
    ...writer(
      (db) => db.tracks,
      (r) => toTrack(r as TrackRow),
      (t) => t.id,
      same,
    ),
    localKeys: (db) => db.tracks.toCollection().primaryKeys(),
  },
  {
    name: 'playlists',
    remote: 'playlists',
    cursor: 'updated_at',
    tieBreak: 'id',
    entity: 'playlist',
    scope: (userId) => [['created_by', userId]],
    keyOf: (r) => String(r.id),
    ...writer(
      (db) => db.playlists,
      (r) => toPlaylist(r as PlaylistRow),
      (p) => p.id,
      same,
    ),
    localKeys: (db, userId) => db.playlists.where('createdBy').equals(userId).primaryKeys(),
  },
  {
    name: 'likes',
    remote: 'liked_tracks',
    cursor: 'created_at',
    tieBreak: 'id',
    entity: 'like',
    scope: (userId) => [['user_id', userId]],
    keyOf: (r) => `${String(r.user_id)}:${String(r.track_id)}`,
    ...writer(
      (db) => db.likes,
      (r) => toLike(r as LikeRow),
      (l): [string, string] => [l.userId, l.trackId],
      pair,
    ),
    localKeys: async (db, userId) =>
      (await db.likes.where('userId').equals(userId).toArray()).map(
        (l) => `${l.userId}:${l.trackId}`,
      ),
  },
  {
    name: 'follows',
    remote: 'followers',
    cursor: 'created_at',
    tieBreak: 'following_id',
    entity: 'follow',
    scope: (userId) => [['follower_id', userId]],
    keyOf: (r) => `${String(r.follower_id)}:${String(r.following_id)}`,
    ...writer(
      (db) => db.follows,
      (r) => toFollow(r as FollowRow),
      (f): [string, string] => [f.followerId, f.followingId],
      pair,
    ),
    localKeys: async (db, userId) =>
      (await db.follows.where('followerId').equals(userId).toArray()).map(
        (f) => `${f.followerId}:${f.followingId}`,
      ),
  },
  {
    name: 'withdrawals',
    remote: 'withdrawals',
    cursor: 'updated_at',
    tieBreak: 'id',
    entity: null,
    scope: (userId) => [['user_id', userId]],
    keyOf: (r) => String(r.id),
    ...writer(
      (db) => db.withdrawals,
      (r) => toWithdrawal(r as WithdrawalRow),
      (w) => w.id,
      same,
    ),
    localKeys: (db, userId) =>
      db.withdrawals
        .where('[userId+createdAt]')
        .between([userId, ''], [userId, '\uffff'])
        .primaryKeys(),
  },
];
