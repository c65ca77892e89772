/**
 * Targeted re-reads: the rows a pushed batch touched (so the mirror shows what the server made of
 * them, rejected ones included), and rows screens open on demand (a lyrics sheet, a profile, a
 * playlist of someone else). A row with queued local writes keeps its local version.
 */
import {
  putChanged,
  toFollow,
  toHistory,
  toLike,
  toLyrics,
  toPlaylist,
  toProfile,
  toTrack,
  type Entity,
  type FollowRow,
  type HistoryRow,
  type LikeRow,
  type LyricsRow,
  type OutboxEntry,
  type PlaylistRow,
  type Profile,
  type ProfileRow,
  type SoundloftDb,
  type TrackRow,
} from '../db';
import { pendingKeys, userQueue } from './outbox';
import type { SyncRemote } from './types';

export interface RefetchDeps {
  db: SoundloftDb;
  remote: SyncRemote;
  userId: string | null;
}

export const HISTORY_LIMIT = 50;

async function keep(deps: RefetchDeps, entity: Entity): Promise<Set<string>> {
  return pendingKeys(deps.db, deps.userId, entity);
}

export async function refetchLikes(deps: RefetchDeps, trackIds: string[]): Promise<void> {
  const { db, remote, userId } = deps;
  if (!userId || !trackIds.length) return;
  const rows = (await remote.select({
    table: 'liked_tracks',
    eq: [['user_id', userId]],
    in: ['track_id', trackIds],
  })) as unknown as LikeRow[];
  await db.transaction('rw', [db.likes, db.outbox], async () => {
    const pending = await keep(deps, 'like');
    const present = new Set(rows.map((r) => r.track_id));
    await db.likes.bulkPut(rows.filter((r) => !pending.has(`${userId}:${r.track_id}`)).map(toLike));
    const gone = trackIds.filter((t) => !present.has(t) && !pending.has(`${userId}:${t}`));
    await db.likes.bulkDelete(gone.map((t) => [userId, t] as [string, string]));
  });
}

export async function refetchFollows(deps: RefetchDeps, followingIds: string[]): Promise<void> {
  const { db, remote, userId } = deps;
  if (!userId || !followingIds.length) return;
  const rows = (await remote.select({
    table: 'followers',
    eq: [['follower_id', userId]],
    in: ['following_id', followingIds],
  })) as unknown as FollowRow[];
  await db.transaction('rw', [db.follows, db.outbox], async () => {
    const pending = await keep(deps, 'follow');
    const present = new Set(rows.map((r) => r.following_id));
    await db.follows.bulkPut(
      rows.filter((r) => !pending.has(`${userId}:${r.following_id}`)).map(toFollow),
    );
    const gone = followingIds.filter((f) => !present.has(f) && !pending.has(`${userId}:${f}`));
    await db.follows.bulkDelete(gone.map((f) => [userId, f] as [string, string]));
  });
}

export async function refreshPlaylist(deps: RefetchDeps, ids: string | string[]): Promise<void> {
  const { db, remote } = deps;
  const list = typeof ids === 'string' ? [ids] : ids;
  if (!list.length) return;
  const rows = (await remote.select({
    table: 'playlists',
    in: ['id', list],
  })) as unknown as PlaylistRow[];
  await db.transaction('rw', [db.playlists, db.outbox], async () => {
    const pending = await keep(deps, 'playlist');
    const present = new Set(rows.map((r) => r.id));
    await db.playlists.bulkPut(rows.filter((r) => !pending.has(r.id)).map(toPlaylist));
    await db.playlists.bulkDelete(list.filter((id) => !present.has(id) && !pending.has(id)));
  });
}

export async function refreshLyrics(deps: RefetchDeps, trackIds: string | string[]): Promise<void> {
  const { db, remote } = deps;
  const list = typeof trackIds === 'string' ? [trackIds] : trackIds;
  if (!list.length) return;
  const rows = (await remote.select({
    table: 'track_lyrics',
    in: ['track_id', list],
  })) as unknown as LyricsRow[];
  await db.transaction('rw', [db.lyrics, db.outbox], async () => {
    const pending = await keep(deps, 'lyrics');
    const present = new Set(rows.map((r) => r.track_id));
    await db.lyrics.bulkPut(rows.filter((r) => !pending.has(r.track_id)).map(toLyrics));
    await db.lyrics.bulkDelete(list.filter((id) => !present.has(id) && !pending.has(id)));
  });
}

/** Re-reads tracks; with `dropMissing`, one the server no longer shows leaves the mirror. */
export async function refreshTracks(
  deps: RefetchDeps,
  ids: string[],
  dropMissing = false,
): Promise<void> {
  if (!ids.length) return;
  const rows = (await deps.remote.select({
    table: 'tracks',
    in: ['id', ids],
  })) as unknown as TrackRow[];
  await deps.db.tracks.bulkPut(rows.map(toTrack));
  if (dropMissing) {
    const present = new Set(rows.map((r) => r.id));
    await deps.db.tracks.bulkDelete(ids.filter((id) => !present.has(id)));
  }
}

/** A profile (own: with email, balance, plan and monthly uploads from profiles_private). */
export async function refreshProfile(deps: RefetchDeps, id: string): Promise<void> {
  const { db, remote, userId } = deps;
  const own = id === userId;
  const bundle = await remote.profile(id, own);
  await db.transaction('rw', [db.profiles, db.outbox], async () => {
    if (!bundle.profile) {
      await db.profiles.delete(id);
      return;
    }
    if (own && (await keep(deps, 'profile')).has(id)) return;
    const profile: Profile = toProfile(bundle.profile as unknown as ProfileRow);
    const priv = bundle.private;
    if (priv) {
      profile.email = (priv.email as string | null) ?? null;
      profile.balance = Number(priv.balance ?? 0);
      profile.subscriptionPlan = String(priv.subscription_plan ?? profile.subscriptionPlan);
      profile.monthlyUploads = Number(priv.monthly_uploads ?? profile.monthlyUploads);
      profile.monthlyUploadsMonth = String(
        priv.monthly_uploads_month ?? profile.monthlyUploadsMonth,
      );
    }
    // Read again with every pull: an unchanged profile is not written (no live query wakes).
    await putChanged(db.profiles, [profile], (p) => p.id);
  });
}

/** The user's latest listens (written by increment_track_plays on the server). */
export async function refreshHistory(deps: RefetchDeps): Promise<void> {
  const { db, remote, userId } = deps;
  if (!userId) return;
  const rows = (await remote.select({
    table: 'listening_history',
    eq: [['user_id', userId]],
    orderBy: 'listened_at',
    descending: true,
    limit: HISTORY_LIMIT,
  })) as unknown as HistoryRow[];
  // Read again with every pull: listens the mirror already has are not written again.
  await db.transaction('rw', db.history, () =>
    putChanged(db.history, rows.map(toHistory), (h) => h.id),
  );
}

type Touched = Pick<OutboxEntry, 'entity' | 'key'>;

const dirtyKey = (userId: string) => `dirty:${userId}`;

/**
 * Rows whose re-read failed after a push: re-read before the next pull (the pull's checkpoint
 * may already be past their change).
 */
export async function markDirty(deps: RefetchDeps, entries: Touched[]): Promise<void> {
  if (!deps.userId) return;
  const key = dirtyKey(deps.userId);
  await deps.db.transaction('rw', deps.db.meta, async () => {
    const previous = ((await deps.db.meta.get(key))?.value as Touched[] | undefined) ?? [];
    const seen = new Set(previous.map((d) => `${d.entity}/${d.key}`));
    const added = entries.filter((e) => !seen.has(`${e.entity}/${e.key}`));
    const next = [...previous, ...added.map(({ entity, key: k }) => ({ entity, key: k }))];
    await deps.db.meta.put({ key, value: next });
  });
}

export async function refetchDirty(deps: RefetchDeps): Promise<void> {
  if (!deps.userId) return;
  const key = dirtyKey(deps.userId);
  const dirty = ((await deps.db.meta.get(key))?.value as Touched[] | undefined) ?? [];
  if (!dirty.length) return;
  const queued = await userQueueKeys(deps);
  const ready = dirty.filter((d) => !queued.has(`${d.entity}/${d.key}`));
  await refetchTouched(deps, ready);
  await deps.db.transaction('rw', deps.db.meta, async () => {
    const now = ((await deps.db.meta.get(key))?.value as Touched[] | undefined) ?? [];
    const done = new Set(ready.map((d) => `${d.entity}/${d.key}`));
    const left = now.filter((d) => !done.has(`${d.entity}/${d.key}`));
    if (left.length) await deps.db.meta.put({ key, value: left });
    else await deps.db.meta.delete(key);
  });
}

async function userQueueKeys(deps: RefetchDeps): Promise<Set<string>> {
  if (!deps.userId) return new Set();
  const entries = await userQueue(deps.db, deps.userId).toArray();
  return new Set(entries.map((e) => `${e.entity}/${e.key}`));
}

/** After a batch: re-read every row it touched, grouped per entity. */
export async function refetchTouched(deps: RefetchDeps, entries: Touched[]): Promise<void> {
  const by = (entity: Entity) => [
    ...new Set(entries.filter((e) => e.entity === entity).map((e) => e.key)),
  ];
  const second = (key: string) => key.split(':')[1] ?? '';
  const plays = entries.filter((e) => e.entity === 'play');
  await Promise.all([
    refetchLikes(deps, by('like').map(second)),
    refetchFollows(deps, by('follow').map(second)),
    refreshPlaylist(deps, by('playlist')),
    refreshLyrics(deps, by('lyrics')),
    by('profile').length && deps.userId ? refreshProfile(deps, deps.userId) : null,
    plays.length ? refreshHistory(deps) : null,
    refreshTracks(deps, [...new Set(plays.map((e) => e.key))]),
  ]);
}
