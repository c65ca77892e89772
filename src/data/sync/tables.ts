/**
 * How each mirrored table is pulled: its server table, scope, cursor and key, and how a row maps
 * to the mirror. Keys are the outbox keys (likes `${userId}:${trackId}`, follows
 * `${followerId}:${followingId}`), which are also the server's tombstone keys.
 */
import {
  toFollow,
  toLike,
  toPlaylist,
  toTrack,
  toWithdrawal,
  type Entity,
  type FollowRow,
  type LikeRow,
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
  /** Replaces the mirror rows of this table for `userId`'s scope with `rows` (all keys). */
  put(db: SoundloftDb, rows: Raw[]): Promise<void>;
  remove(db: SoundloftDb, keys: string[]): Promise<void>;
  /** The keys the mirror holds in this scope (for a full reload). */
  localKeys(db: SoundloftDb, userId: string): Promise<string[]>;
}

const pair = (key: string): [string, string] => {
  const [a = '', b = ''] = key.split(':');
  return [a, b];
};

export const PULL_SPECS: PullSpec[] = [
  {
    name: 'tracks',
    remote: 'tracks',
    cursor: 'updated_at',
    tieBreak: 'id',
    entity: null,
    scope: () => [],
    keyOf: (r) => String(r.id),
    put: (db, rows) => db.tracks.bulkPut(rows.map((r) => toTrack(r as TrackRow))).then(() => {}),
    remove: (db, keys) => db.tracks.bulkDelete(keys),
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
    put: (db, rows) =>
      db.playlists.bulkPut(rows.map((r) => toPlaylist(r as PlaylistRow))).then(() => {}),
    remove: (db, keys) => db.playlists.bulkDelete(keys),
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
    put: (db, rows) => db.likes.bulkPut(rows.map((r) => toLike(r as LikeRow))).then(() => {}),
    remove: (db, keys) => db.likes.bulkDelete(keys.map(pair)),
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
    put: (db, rows) => db.follows.bulkPut(rows.map((r) => toFollow(r as FollowRow))).then(() => {}),
    remove: (db, keys) => db.follows.bulkDelete(keys.map(pair)),
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
    put: (db, rows) =>
      db.withdrawals.bulkPut(rows.map((r) => toWithdrawal(r as WithdrawalRow))).then(() => {}),
    remove: (db, keys) => db.withdrawals.bulkDelete(keys),
    localKeys: (db, userId) =>
      db.withdrawals
        .where('[userId+createdAt]')
        .between([userId, ''], [userId, '\uffff'])
        .primaryKeys(),
  },
];
