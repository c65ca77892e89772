/**
 * Offline downloads in the app (docs/offline.md): one download manager for the signed-in
 * listener, started and stopped with the session, resumed when the device comes back online,
 * and the rights rules:
 * - only a plan with offline listening may download (`plan_allows_offline`, asked before a
 *   download is queued and again at each start online);
 * - a check older than 30 days makes the downloads unplayable until the next check online;
 * - a check that says no (a downgrade) removes them;
 * - a check removes each download whose track the server no longer holds (taken down since);
 * - signing out removes the signed-out listener's downloads (`removeDownloadsOf`).
 */
import { useEffect, useMemo, useState } from 'react';
import { authStore } from '../auth/auth-store';
import { getDb, type Download } from '../db';
import {
  planAllowsOffline,
  renewDownloads,
  signDownload,
  type DownloadQuality,
} from '../remote/downloads-remote';
import { useStableLiveQuery } from '../repositories/hooks';
import { fetchOnDemand, onSyncPulled } from '../sync/app-sync';
import { offlineAudioPath } from '@/lib/offline-audio';
import { whenShellOffline } from '@/lib/service-worker';
import {
  collectionKey,
  isRecorded,
  keepCollectionsInSync,
  othersPlaylists,
  recorded,
} from './collection-sync';
import { DownloadManager } from './download-manager';
import {
  checkKey,
  checkedWithin,
  watchPlayableDownloads,
  type PlayableDownloads,
} from './playable-downloads';

export { OFFLINE_CHECK_DAYS } from './playable-downloads';

export { QUOTA_MESSAGE, DOWNLOAD_FAILED_MESSAGE } from './download-manager';
export type { DownloadQuality } from '../remote/downloads-remote';

export const PREMIUM_ONLY_MESSAGE = 'Downloads are part of Premium. Upgrade to listen offline.';

const qualityKey = (userId: string) => `downloads:quality:${userId}`;

let manager: DownloadManager | null = null;
/** Stops keeping the current manager's collections in sync. */
let stopCollections: (() => void) | null = null;

/** The signed-in listener's downloads as the player asks about them (from memory). */
let playable: PlayableDownloads | null = null;

const DEVICE_KEY = 'soundloft-device-id';

/**
 * This browser's id for downloads (`&device=` of a download, `device_id` of an offline play,
 * docs/plays.md): made once, kept in localStorage.
 */
export function deviceId(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = crypto.randomUUID();
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

/** The signed-in listener's download manager, or null when signed out. */
export function currentDownloads(): DownloadManager | null {
  return manager;
}

async function signFor(userId: string, trackId: string) {
  const db = getDb();
  const track = await db.tracks.get(trackId);
  if (!track) throw new Error('This track is not available to you.');
  const quality = ((await db.meta.get(qualityKey(userId)))?.value as DownloadQuality) ?? 'high';
  return signDownload(track, quality, deviceId());
}

function stopCurrent(): void {
  stopCollections?.();
  stopCollections = null;
  playable?.stop();
  playable = null;
  void manager?.stop();
  manager = null;
}

function startFor(userId: string): DownloadManager {
  if (manager?.userId === userId) return manager;
  stopCurrent();
  const m = new DownloadManager({
    db: getDb(),
    userId,
    sign: (trackId) => signFor(userId, trackId),
    shellOffline: whenShellOffline,
  });
  manager = m;
  void m.start();
  void checkRights(m);
  stopCollections = keepCollectionsInSync(getDb(), m);
  playable = watchPlayableDownloads(getDb(), userId);
  void refreshOthersPlaylists(m);
  return m;
}

/**
 * Brings the downloaded playlists of others up to date (a pull brings only the listener's own):
 * at start, after each pull and back online; the collection sync follows what they hold.
 */
async function refreshOthersPlaylists(m: DownloadManager): Promise<void> {
  if (!navigator.onLine) return;
  const ids = await othersPlaylists(getDb(), m.userId);
  await Promise.all(ids.map((id) => fetchOnDemand.playlist(id).catch(() => undefined)));
}

/** Forgets which collections were downloaded (their downloads are gone). */
async function forgetCollections(userId: string): Promise<void> {
  await getDb()
    .meta.filter((e) => e.key.startsWith(collectionKey(userId, '')))
    .delete();
}

/**
 * Asks the server whether the plan still includes offline listening: yes renews the server's
 * record, removes the downloads it no longer holds (taken-down tracks) and records the time of
 * the check; no removes the downloads (a downgrade). Offline, nothing changes.
 */
async function checkRights(m: DownloadManager): Promise<void> {
  if (!navigator.onLine) return;
  const db = getDb();
  if ((await db.downloads.where('userId').equals(m.userId).count()) === 0) return;
  try {
    if (await planAllowsOffline(m.userId)) {
      // The server's record of this device's downloads is renewed for 30 days too; a download
      // it no longer holds (its track taken down since) is removed here, file and row.
      await m.keepOnly(new Set(await renewDownloads(deviceId())));
      await db.meta.put({ key: checkKey(m.userId), value: new Date().toISOString() });
    } else {
      await m.removeAll();
      await db.meta.delete(checkKey(m.userId));
      await forgetCollections(m.userId);
    }
  } catch {
    // The server did not answer: the last check stands.
  }
}

/** Starts and stops the manager with the session; resumes downloads when back online. */
export function bindDownloadsToAuth(): () => void {
  const follow = () => {
    const userId = authStore.getSnapshot().session?.user.id ?? null;
    if (userId) startFor(userId);
    else stopCurrent();
  };
  const online = () => {
    if (!manager) return;
    manager.resumeWhenOnline();
    void checkRights(manager);
    void refreshOthersPlaylists(manager);
  };
  follow();
  window.addEventListener('online', online);
  const unsubscribe = authStore.subscribe(follow);
  const stopPulled = onSyncPulled(() => {
    if (manager) void refreshOthersPlaylists(manager);
  });
  return () => {
    unsubscribe();
    stopPulled();
    window.removeEventListener('online', online);
  };
}

/**
 * Downloads tracks for the signed-in listener after the server confirms the plan allows it;
 * rejects with PREMIUM_ONLY_MESSAGE otherwise.
 */
export async function downloadTracks(trackIds: readonly string[], source: string): Promise<void> {
  const m = manager;
  if (!m) throw new Error('Sign in to download.');
  if (!(await planAllowsOffline(m.userId))) throw new Error(PREMIUM_ONLY_MESSAGE);
  await getDb().meta.put({ key: checkKey(m.userId), value: new Date().toISOString() });
  await m.enqueue(trackIds, source);
}

/**
 * Downloads a playlist ('playlist:<id>') or Liked Songs ('liked') and keeps it in sync: tracks
 * added later download too, removed ones are deleted (collection-sync.ts, whether the
 * collection is on screen or not).
 */
export async function downloadCollection(source: string, trackIds: readonly string[]) {
  await downloadTracks(trackIds, source);
  const m = manager;
  if (m)
    await getDb().meta.put({ key: collectionKey(m.userId, source), value: recorded(trackIds) });
}

/** Stops keeping a collection downloaded: its tracks go unless another source wants them. */
export async function removeCollection(source: string): Promise<void> {
  const m = manager;
  if (!m) return;
  const db = getDb();
  await db.meta.delete(collectionKey(m.userId, source));
  const ids = (await db.downloads.where('userId').equals(m.userId).toArray())
    .filter((d) => d.sources.includes(source))
    .map((d) => d.trackId);
  await m.release(ids, source);
}

/** Removes one track's download (whatever asked for it). */
export async function removeDownload(trackId: string): Promise<void> {
  await manager?.remove(trackId);
}

/** Every download of the listener ('Remove all downloads'); collections stop syncing too. */
export async function removeAllDownloads(): Promise<void> {
  const m = manager;
  if (!m) return;
  await m.removeAll();
  await forgetCollections(m.userId);
  await m.start();
}

/** Whether a playlist or Liked Songs is downloaded (and so kept in sync), live. */
export function useCollectionDownloaded(userId: string | null, source: string): boolean {
  return (
    useStableLiveQuery(
      async () =>
        userId ? isRecorded((await getDb().meta.get(collectionKey(userId, source)))?.value) : false,
      [userId, source],
    ) ?? false
  );
}

/** Removes the downloads of `userId` from this device (sign-out). */
export async function removeDownloadsOf(userId: string): Promise<void> {
  const m =
    manager?.userId === userId
      ? manager
      : new DownloadManager({ db: getDb(), userId, sign: () => Promise.reject(new Error()) });
  await m.stop();
  await m.removeAll();
  await getDb()
    .meta.filter((e) => e.key.startsWith(`downloads:`) && e.key.includes(`:${userId}`))
    .delete();
}

/**
 * Whether `userId`'s downloads may play now: checked online within the last 30 days. The
 * player plays a track from the downloads cache only then.
 */
export async function downloadsPlayable(userId: string, now = Date.now()): Promise<boolean> {
  return checkedWithin((await getDb().meta.get(checkKey(userId)))?.value, now);
}

/** Whether `trackId` is downloaded (whole, in the cache) for `userId`. */
export async function isDownloaded(userId: string, trackId: string): Promise<boolean> {
  return (await getDb().downloads.get([userId, trackId]))?.state === 'done';
}

/**
 * downloadedSource answered at once from memory (the player's click path): the path, null, or
 * undefined when memory cannot tell yet (then ask downloadedSource).
 */
export function downloadedSourceNow(userId: string, trackId: string): string | null | undefined {
  if (!navigator.serviceWorker?.controller) return null;
  return playable?.userId === userId ? playable.source(trackId) : undefined;
}

/**
 * The URL to play a downloaded track from (the service worker answers it from the downloads
 * cache), or null: not downloaded, not playable (no check for 30 days), or no service worker
 * controls the page (then nothing would answer that URL). From memory for the signed-in
 * listener (the click's path), from Dexie otherwise.
 */
export async function downloadedSource(userId: string, trackId: string): Promise<string | null> {
  const now = downloadedSourceNow(userId, trackId);
  if (now !== undefined) return now;
  if (!(await isDownloaded(userId, trackId)) || !(await downloadsPlayable(userId))) return null;
  return offlineAudioPath(userId, trackId);
}

const NO_DOWNLOADS: Download[] = [];

/** Every download of the listener, in queue order (live). */
export function useDownloads(userId: string | null): Download[] {
  return (
    useStableLiveQuery(
      () =>
        userId
          ? getDb()
              .downloads.where('[userId+queuedAt]')
              .between([userId, ''], [userId, '\uffff'])
              .toArray()
          : Promise.resolve(NO_DOWNLOADS),
      [userId],
    ) ?? NO_DOWNLOADS
  );
}

/** The ids of the listener's downloaded tracks (live), for the 'Downloaded' marker. */
export function useDownloadedTrackIds(userId: string | null): ReadonlySet<string> {
  const ids = useStableLiveQuery(
    async () =>
      userId
        ? (
            await getDb().downloads.where('[userId+state]').equals([userId, 'done']).primaryKeys()
          ).map(([, trackId]) => trackId)
        : [],
    [userId],
  );
  return useMemo(() => new Set(ids ?? []), [ids]);
}

/** The download quality the listener chose ('high' by default). */
export function useDownloadQuality(userId: string | null): DownloadQuality {
  const value = useStableLiveQuery(
    async () => (userId ? (await getDb().meta.get(qualityKey(userId)))?.value : undefined),
    [userId],
  );
  return value === 'lossless' ? 'lossless' : 'high';
}

export async function setDownloadQuality(userId: string, quality: DownloadQuality): Promise<void> {
  await getDb().meta.put({ key: qualityKey(userId), value: quality });
}

export interface StorageFigures {
  /** Bytes this origin uses and may use (navigator.storage.estimate), when the browser says. */
  usage: number | null;
  quota: number | null;
  /** Whether the browser keeps this origin's storage under pressure (navigator.storage.persist). */
  persisted: boolean | null;
}

/** The storage estimate, read again whenever `version` changes (a download finished...). */
export function useStorageFigures(version: unknown): StorageFigures {
  const [figures, setFigures] = useState<StorageFigures>({
    usage: null,
    quota: null,
    persisted: null,
  });
  useEffect(() => {
    let live = true;
    const storage = navigator.storage as StorageManager | undefined;
    void (async () => {
      const estimate = await storage?.estimate?.().catch(() => undefined);
      const persisted = await storage?.persisted?.().catch(() => null);
      if (live)
        setFigures({
          usage: estimate?.usage ?? null,
          quota: estimate?.quota ?? null,
          persisted: persisted ?? null,
        });
    })();
    return () => {
      live = false;
    };
  }, [version]);
  return figures;
}

/** Asks the browser to keep downloads under storage pressure; resolves to its answer. */
export async function requestPersistentStorage(): Promise<boolean> {
  const storage = navigator.storage as StorageManager | undefined;
  return (await storage?.persist?.().catch(() => false)) ?? false;
}
