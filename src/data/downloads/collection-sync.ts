/**
 * Downloaded collections stay in sync (docs/offline.md, "Collections stay in sync"): a playlist
 * or Liked Songs that was downloaded is recorded in Dexie `meta` with the tracks it held
 * (`downloads:collection:<user>:<source>` → `{ trackIds }`). Whenever the mirror changes (a sync
 * pull, a write on this device, another tab, the app's start) the download manager compares each
 * collection with what it holds now: tracks added since download, tracks removed from it are
 * released (deleted unless another source wants them), and a collection that is gone (a deleted
 * playlist) releases them all. Nothing on screen is needed.
 *
 * Only changes of the collection count: a track the listener removed from the downloads by hand
 * stays removed until it leaves the collection and comes back.
 */
import { observe, type SoundloftDb } from '../db';
import { likedTrackIds } from '../repositories/queries';
import type { DownloadManager } from './download-manager';

export const collectionKey = (userId: string, source: string) =>
  `downloads:collection:${userId}:${source}`;
const collectionPrefix = (userId: string) => `downloads:collection:${userId}:`;

/** What `meta` holds for a downloaded collection (`true`: recorded before the track list was). */
type Recorded = { trackIds: string[] } | true;

export const isRecorded = (value: unknown): value is Recorded =>
  value === true ||
  (typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as Recorded & object).trackIds));

export function recorded(trackIds: readonly string[]): Recorded {
  return { trackIds: [...trackIds] };
}

/** One downloaded collection: what it held when last seen, and what it holds now (null: gone). */
export interface CollectionView {
  source: string;
  known: Recorded;
  now: string[] | null;
}

/** The tracks of a collection in the mirror now, or null when it no longer exists. */
async function tracksOf(db: SoundloftDb, userId: string, source: string) {
  if (source === 'liked') {
    const ids = await likedTrackIds(db, userId);
    // Liked Songs lists the liked tracks the mirror holds (likedTracks), so does its download.
    const tracks = await db.tracks.bulkGet(ids);
    return ids.filter((_, i) => tracks[i] !== undefined);
  }
  if (source.startsWith('playlist:')) {
    return (await db.playlists.get(source.slice('playlist:'.length)))?.trackIds ?? null;
  }
  return null;
}

/** The listener's downloaded collections as they are now (read inside a live query). */
export async function collectionViews(db: SoundloftDb, userId: string): Promise<CollectionView[]> {
  const entries = await db.meta.where('key').startsWith(collectionPrefix(userId)).toArray();
  const views: CollectionView[] = [];
  for (const entry of entries) {
    if (!isRecorded(entry.value)) continue;
    const source = entry.key.slice(collectionPrefix(userId).length);
    views.push({ source, known: entry.value, now: await tracksOf(db, userId, source) });
  }
  return views;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set([...a, ...b]).size === a.length;

/** Brings the downloads of each collection to what it holds now. */
export async function reconcileCollections(
  db: SoundloftDb,
  m: DownloadManager,
  views: readonly CollectionView[],
): Promise<void> {
  for (const { source, known, now } of views) {
    const key = collectionKey(m.userId, source);
    const rows = await db.downloads.where('userId').equals(m.userId).toArray();
    const had =
      known === true
        ? rows.filter((d) => d.sources.includes(source)).map((d) => d.trackId)
        : known.trackIds;
    if (now === null) {
      await m.release(had, source);
      await db.meta.delete(key);
      continue;
    }
    const wanted = new Set(now);
    const before = new Set(had);
    const removed = had.filter((id) => !wanted.has(id));
    const added = now.filter((id) => !before.has(id));
    if (removed.length) await m.release(removed, source);
    if (added.length) await m.enqueue(added, source);
    if (known === true || !sameSet(known.trackIds, now))
      await db.meta.put({ key, value: recorded(now) });
  }
}

/**
 * Keeps `m`'s listener's downloaded collections in sync while it runs: reconciles at once and
 * after every change of the mirror that touches them, one reconcile at a time. Returns stop.
 */
export function keepCollectionsInSync(
  db: SoundloftDb,
  m: DownloadManager,
  onError: (error: unknown) => void = (error) =>
    console.warn('Keeping downloaded collections in sync failed', error),
): () => void {
  let latest: CollectionView[] | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = (async () => {
      while (latest && !stopped) {
        const views = latest;
        latest = null;
        await reconcileCollections(db, m, views).catch(onError);
      }
    })().finally(() => {
      running = null;
    });
  };
  const unsubscribe = observe(
    () => collectionViews(db, m.userId),
    (views) => {
      latest = views;
      run();
    },
  );
  return () => {
    stopped = true;
    unsubscribe();
  };
}

/** The downloaded playlists of others (the sync pull brings only the listener's own). */
export async function othersPlaylists(db: SoundloftDb, userId: string): Promise<string[]> {
  const ids = (await collectionViews(db, userId))
    .filter((v) => v.source.startsWith('playlist:'))
    .map((v) => v.source.slice('playlist:'.length));
  const rows = await db.playlists.bulkGet(ids);
  return ids.filter((_, i) => rows[i]?.createdBy !== userId);
}
