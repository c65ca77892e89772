/**
 * Live reads for components: each re-renders when the mirror changes (any tab, any sync).
 * While the first read runs, and whenever a read fails, lists are empty and rows null (spec 8:
 * list read failures return an empty list); the mirror itself is never wiped by a failure.
 * The `...OrLoading` reads (and useFollowingIds) answer undefined until their first read has,
 * like useLiveQuery, for screens where 'still loading' and 'empty' must look different.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import { getDb } from '../db';
import { fetchOnDemand } from '../sync/app-sync';
import * as q from './queries';

const EMPTY: never[] = [];

function useListOrLoading<T>(query: () => Promise<T[]>, deps: unknown[]): T[] | undefined {
  return useLiveQuery(() => query().catch(() => [] as T[]), deps);
}

function useList<T>(query: () => Promise<T[]>, deps: unknown[]): T[] {
  return useListOrLoading(query, deps) ?? (EMPTY as T[]);
}

function useRow<T>(query: () => Promise<T | null>, deps: unknown[]): T | null {
  return useLiveQuery(() => query().catch(() => null), deps) ?? null;
}

export const useAllTracks = () => useList(() => q.allTracks(getDb()), []);

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

export function useProfile(id: string | null | undefined) {
  useEffect(() => {
    if (id) void fetchOnDemand.profile(id).catch(() => undefined);
  }, [id]);
  return useRow(() => (id ? q.profileOf(getDb(), id) : Promise.resolve(null)), [id]);
}

/** The ids `userId` follows; undefined until the first read answers. */
export const useFollowingIds = (userId: string | null | undefined) =>
  useListOrLoading(
    () => (userId ? q.followingIds(getDb(), userId) : Promise.resolve([])),
    [userId],
  );

export const useHistory = (userId: string | null | undefined, limit = 10) =>
  useList(
    () => (userId ? q.recentHistory(getDb(), userId, limit) : Promise.resolve([])),
    [userId, limit],
  );

export const useWithdrawals = (userId: string | null | undefined) =>
  useList(() => (userId ? q.withdrawalsOf(getDb(), userId) : Promise.resolve([])), [userId]);
