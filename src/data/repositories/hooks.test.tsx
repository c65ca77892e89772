import type * as AppSyncModule from '../sync/app-sync';
import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { getDb, markMirrorFilled } from '../db';
import { testTrack } from '../db/test-track';
import { createRepositories } from './index';
import {
  useAllTracks,
  useRecentTracksOrLoading,
  useFollowingIds,
  useLikedTrackIds,
  useLikeCount,
  useLikedTracksOrLoading,
  usePlaylistCount,
  usePlaylists,
  usePlaylistsOrLoading,
  useUploadCount,
  useUserTracksOrLoading,
} from './hooks';
import { useProfileCounts } from './profile-lookup';
import { useMirrorLoading } from './use-mirror-loading';

// The sync status the hooks see (signed out by default: no engine, lists answer at once), and
// the signed-in user whose mirror mark they read.
const { sync } = vi.hoisted(() => ({
  sync: { phase: 'signed-out', lastError: null as string | null, lastPulledAt: null },
}));
vi.mock('../sync/app-sync', async (importOriginal) => ({
  ...(await importOriginal<typeof AppSyncModule>()),
  useSyncStatusSelector: <T,>(select: (status: typeof sync) => T) => select({ ...sync }),
}));
vi.mock('../auth/auth-store', () => ({
  authStore: { getSnapshot: () => ({ session: { user: { id: 'me' } } }) },
}));

afterEach(async () => {
  Object.assign(sync, { phase: 'signed-out', lastError: null });
  await Promise.all(getDb().tables.map((t) => t.clear()));
});

it("a first visit's lists and counts load until the first full pull has landed, then answer", async () => {
  // The engine's first pull is running on an empty mirror (just signed in on this device).
  Object.assign(sync, { phase: 'syncing' });
  const playlists = renderHook(() => usePlaylistsOrLoading('me'));
  const liked = renderHook(() => useLikeCount('me'));
  const recent = renderHook(() => useRecentTracksOrLoading(8));
  const loading = renderHook(() => useMirrorLoading());
  await new Promise((r) => setTimeout(r, 100));
  expect(playlists.result.current).toBe(undefined);
  expect(liked.result.current).toBe(undefined);
  expect(recent.result.current).toBe(undefined);
  expect(loading.result.current).toBe(true);
  // The pull merges table by table: the tracks land first. Not a reason to call the other
  // lists empty (this said 'No playlists yet.' and 'You haven't liked any songs yet' before).
  await act(() => getDb().tracks.put(testTrack('t1', { status: 'ready' })));
  await waitFor(() => expect(recent.result.current?.map((t) => t.id)).toEqual(['t1']));
  expect(loading.result.current).toBe(true);
  expect(playlists.result.current).toBe(undefined);
  expect(liked.result.current).toBe(undefined);
  // Its status may say 'done' a moment before the reads have seen the last table: still loading.
  Object.assign(sync, { phase: 'idle', lastPulledAt: Date.now() });
  playlists.rerender();
  loading.rerender();
  expect(playlists.result.current).toBe(undefined);
  expect(loading.result.current).toBe(true);
  // The pull's mark, written after its last table: empty is an answer now.
  await act(() => markMirrorFilled(getDb(), 'me'));
  await waitFor(() => expect(playlists.result.current).toEqual([]));
  await waitFor(() => expect(liked.result.current).toBe(0));
  await waitFor(() => expect(loading.result.current).toBe(false));
});

it('a failed first pull shows the empty answers instead of loading forever', async () => {
  Object.assign(sync, { phase: 'syncing' });
  const playlists = renderHook(() => usePlaylistsOrLoading('me'));
  await new Promise((r) => setTimeout(r, 100));
  expect(playlists.result.current).toBe(undefined);
  Object.assign(sync, { phase: 'idle', lastError: 'Failed to fetch' });
  playlists.rerender();
  await waitFor(() => expect(playlists.result.current).toEqual([]));
});

it('live reads re-render when a repository writes, and start empty', async () => {
  const repos = createRepositories({ db: getDb(), currentUserId: () => 'me' });
  const likes = renderHook(() => useLikedTrackIds('me'));
  const playlists = renderHook(() => usePlaylists('me'));
  const tracks = renderHook(() => useAllTracks());
  expect(likes.result.current).toEqual([]);
  expect(tracks.result.current).toEqual([]);
  await act(async () => {
    await repos.likes.toggle('t1');
    await repos.playlists.create('Mix');
  });
  await waitFor(() => expect(likes.result.current).toEqual(['t1']));
  await waitFor(() => expect(playlists.result.current.map((p) => p.name)).toEqual(['Mix']));
});

it('useFollowingIds and the OrLoading reads are undefined until their first read answers', async () => {
  const repos = createRepositories({ db: getDb(), currentUserId: () => 'me' });
  await repos.follows.toggle('u2');
  const following = renderHook(() => useFollowingIds('me'));
  const liked = renderHook(() => useLikedTracksOrLoading('me'));
  const uploads = renderHook(() => useUserTracksOrLoading('me'));
  const playlists = renderHook(() => usePlaylistsOrLoading('me'));
  for (const hook of [following, liked, uploads, playlists])
    expect(hook.result.current).toBe(undefined);
  await waitFor(() => expect(following.result.current).toEqual(['u2']));
  await waitFor(() => expect(liked.result.current).toEqual([]));
  await waitFor(() => expect(uploads.result.current).toEqual([]));
  await waitFor(() => expect(playlists.result.current).toEqual([]));
});

it("useProfileCounts: isFollowing is undefined while the viewer's follows load, then the answer", async () => {
  const repos = createRepositories({ db: getDb(), currentUserId: () => 'me' });
  await repos.follows.toggle('u2');
  const other = renderHook(() => useProfileCounts('u2', 'me', 7));
  const own = renderHook(() => useProfileCounts('me', 'me'));
  expect(other.result.current.isFollowing).toBe(undefined);
  expect(other.result.current.followers).toBe(7);
  expect(own.result.current.isFollowing).toBe(false);
  await waitFor(() => expect(other.result.current.isFollowing).toBe(true));
  await waitFor(() => expect(own.result.current.following).toBe(1));
});

it('a live read keeps its answer (and skips the re-render) while the rows stay the same', async () => {
  const repos = createRepositories({ db: getDb(), currentUserId: () => 'me' });
  await repos.playlists.create('Mix');
  let renders = 0;
  const playlists = renderHook(() => {
    renders += 1;
    return usePlaylists('me');
  });
  await waitFor(() => expect(playlists.result.current.map((p) => p.name)).toEqual(['Mix']));
  const first = playlists.result.current;
  const rendersBefore = renders;
  // A sync pull rewrites the row as it is: the live query runs again with the same content.
  await act(async () => {
    const row = (await getDb().playlists.toArray())[0]!;
    await getDb().playlists.put({ ...row });
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
  expect(playlists.result.current).toBe(first);
  expect(renders).toBe(rendersBefore);
  // A real change still arrives.
  await act(async () => {
    await repos.playlists.create('Second');
  });
  await waitFor(() => expect(playlists.result.current).toHaveLength(2));
  expect(playlists.result.current).not.toBe(first);
});

it('the home counts answer numbers, undefined until the first read', async () => {
  const repos = createRepositories({ db: getDb(), currentUserId: () => 'me' });
  await repos.likes.toggle('t1');
  await repos.likes.toggle('t2');
  await repos.playlists.create('Mix');
  const likes = renderHook(() => useLikeCount('me'));
  const lists = renderHook(() => usePlaylistCount('me'));
  const uploads = renderHook(() => useUploadCount('me'));
  expect(likes.result.current).toBe(undefined);
  await waitFor(() => expect(likes.result.current).toBe(2));
  await waitFor(() => expect(lists.result.current).toBe(1));
  await waitFor(() => expect(uploads.result.current).toBe(0));
  await act(async () => {
    await repos.likes.toggle('t1');
  });
  await waitFor(() => expect(likes.result.current).toBe(1));
});
