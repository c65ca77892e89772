/**
 * Live reads for components: each re-renders when the mirror changes (any tab, any sync).
 * While the first read runs, and whenever a read fails, lists are empty and rows null (spec 8:
 * list read failures return an empty list); the mirror itself is never wiped by a failure.
 * The `...OrLoading` reads (and useFollowingIds) answer undefined until their first read has,
 * like useLiveQuery, for screens where 'still loading' and 'empty' must look different.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useDeferredValue, useEffect, useRef } from 'react';
import { sameValue } from '@/lib/same-value';
import { authStore } from '../auth/auth-store';
import { getDb, isMirrorFilled } from '../db';
import { fetchOnDemand, useSyncStatusSelector } from '../sync/app-sync';
import type { SyncStatus } from '../sync/status-store';
import * as q from './queries';

const EMPTY: never[] = [];

/**
 * useLiveQuery whose answer keeps its identity while its content does not change, rendered in
 * the background (docs/architecture.md, "Render cost"):
 * - A live query runs again on every write to a table it reads (each sync pull writes), and a
 *   new array, even with the same rows, re-renders the component and everything it is passed to.
 * - A new answer is a deferred value: React renders it in interruptible slices instead of one
 *   long task that blocks input (an update from a promise is otherwise rendered in one go).
 */
export function useStableLiveQuery<T>(query: () => Promise<T>, deps: unknown[]): T | undefined {
  const last = useRef<{ value: T } | null>(null);
  const value = useLiveQuery(async () => {
    const next = await query();
    const previous = last.current;
    if (previous && sameValue(previous.value, next)) return previous.value;
    last.current = { value: next };
    return next;
  }, deps);
  return useDeferredValue(value);
}

/**
 * The mirror may still fill: no pull has failed and the app is not offline. With an unfilled
 * mirror (isMirrorFilled) an empty read is then 'not loaded yet', not 'none'.
 */
export const mayStillFill = (status: SyncStatus): boolean =>
  status.lastError === null && (status.phase === 'idle' || status.phase === 'syncing');

/** The signed-in user's mirror has had a full pull (read inside a live query: it follows it). */
export const signedInMirrorFilled = (): Promise<boolean> =>
  isMirrorFilled(getDb(), authStore.getSnapshot().session?.user.id ?? null).catch(() => true);

/**
 * A list, or undefined while it is loading: its read has not answered, or it is empty while the
 * first full pull of this user's mirror has not finished (not failed, not offline). The mark of
 * that pull is read in the same live query as the rows, so an empty answer read before the pull
 * landed can never be shown as 'empty' (it comes with `filled` false), whatever order the live
 * queries and deferred renders arrive in.
 */
function useListOrLoading<T>(query: () => Promise<T[]>, deps: unknown[]): T[] | undefined {
  const filling = useSyncStatusSelector(mayStillFill);
  const read = useStableLiveQuery(async () => {
    const filled = await signedInMirrorFilled();
    return { filled, rows: await query().catch(() => [] as T[]) };
  }, deps);
  if (!read || (read.rows.length === 0 && !read.filled && filling)) return undefined;
  return read.rows;
}

function useList<T>(query: () => Promise<T[]>, deps: unknown[]): T[] {
  return useListOrLoading(query, deps) ?? (EMPTY as T[]);
}

function useRow<T>(query: () => Promise<T | null>, deps: unknown[]): T | null {
  return useStableLiveQuery(() => query().catch(() => null), deps) ?? null;
}

/**
 * A number answers by value, so an unchanged count never re-renders; undefined while loading,
 * including a 0 read while the mirror's first full pull has not landed (as useListOrLoading).
 */
function useCount(query: () => Promise<number>, deps: unknown[]): number | undefined {
  const filling = useSyncStatusSelector(mayStillFill);
  const read = useDeferredValue(
    useLiveQuery(async () => {
      const filled = await signedInMirrorFilled();
      const n = await query().catch(() => 0);
      // One number: the count, or -1 for 'none yet, mirror not filled'.
      return n === 0 && !filled ? -1 : n;
    }, deps),
  );
  if (read === undefined || (read === -1 && filling)) return undefined;
  return Math.max(read, 0);
}

export const useAllTracksOrLoading = () => useListOrLoading(() => q.allTracks(getDb()), []);

export const useAllTracks = () => useAllTracksOrLoading() ?? EMPTY;

/** The `limit` newest tracks of the catalogue. */
export const useRecentTracksOrLoading = (limit: number) =>
  useListOrLoading(() => q.recentTracks(getDb(), limit), [limit]);

export const useRecentTracks = (limit: number) => useRecentTracksOrLoading(limit) ?? EMPTY;

/** How many tracks `userId` uploaded, liked, and how many playlists they made. */
export const useUploadCount = (userId: string | null | undefined) =>
  useCount(() => (userId ? q.countUploads(getDb(), userId) : Promise.resolve(0)), [userId]);

export const useLikeCount = (userId: string | null | undefined) =>
  useCount(() => (userId ? q.countLikes(getDb(), userId) : Promise.resolve(0)), [userId]);

export const usePlaylistCount = (userId: string | null | undefined) =>
  useCount(() => (userId ? q.countPlaylists(getDb(), userId) : Promise.resolve(0)), [userId]);

export const useUserTracksOrLoading = (userId: string | null | undefined) =>
  useListOrLoading(
    () => (userId ? q.tracksByUploader(getDb(), userId) : Promise.resolve([])),
    [userId],
  );

export const useUserTracks = (userId: string | null | undefined) =>
  useUserTracksOrLoading(userId) ?? EMPTY;

export const useArtistTracks = (artist: string) =>
  useList(() => q.tracksByArtist(getDb(), artist), [artist]);

export const useLikedTrackIds = (userId: string | null | undefined) =>
  useList(() => (userId ? q.likedTrackIds(getDb(), userId) : Promise.resolve([])), [userId]);

export const useLikedTracksOrLoading = (userId: string | null | undefined) =>
  useListOrLoading(() => (userId ? q.likedTracks(getDb(), userId) : Promise.resolve([])), [userId]);

export const useLikedTracks = (userId: string | null | undefined) =>
  useLikedTracksOrLoading(userId) ?? EMPTY;

export const usePlaylistsOrLoading = (userId: string | null | undefined) =>
  useListOrLoading(() => (userId ? q.playlistsOf(getDb(), userId) : Promise.resolve([])), [userId]);

export const usePlaylists = (userId: string | null | undefined) =>
  usePlaylistsOrLoading(userId) ?? EMPTY;

export function usePlaylist(id: string) {
  useEffect(() => {
    void fetchOnDemand.playlist(id).catch(() => undefined);
  }, [id]);
  return useRow(() => q.playlistById(getDb(), id), [id]);
}

export const usePlaylistTracks = (id: string) => useList(() => q.playlistTracks(getDb(), id), [id]);

export function useLyrics(trackId: string) {
  useEffect(() => {
    void fetchOnDemand
      .lyrics(trackId)
      .catch((e: unknown) => console.warn('Unable to load lyrics', e));
  }, [trackId]);
  return useRow(() => q.lyricsOf(getDb(), trackId), [trackId]);
}

/** The profile, null when the mirror has none, undefined until the first read answers. */
export function useProfileOrLoading(id: string | null | undefined) {
  useEffect(() => {
    if (id) void fetchOnDemand.profile(id).catch(() => undefined);
  }, [id]);
  return useStableLiveQuery(
    () => (id ? q.profileOf(getDb(), id).catch(() => null) : Promise.resolve(null)),
    [id],
  );
}

export const useProfile = (id: string | null | undefined) => useProfileOrLoading(id) ?? null;

/** The ids `userId` follows; undefined until the first read answers. */
export const useFollowingIds = (userId: string | null | undefined) =>
  useListOrLoading(
    () => (userId ? q.followingIds(getDb(), userId) : Promise.resolve([])),
    [userId],
  );

export const useHistoryOrLoading = (userId: string | null | undefined, limit = 10) =>
  useListOrLoading(
    () => (userId ? q.recentHistory(getDb(), userId, limit) : Promise.resolve([])),
    [userId, limit],
  );

export const useHistory = (userId: string | null | undefined, limit = 10) =>
  useHistoryOrLoading(userId, limit) ?? EMPTY;

export const useWithdrawals = (userId: string | null | undefined) =>
  useList(() => (userId ? q.withdrawalsOf(getDb(), userId) : Promise.resolve([])), [userId]);
