import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { getDb } from '../db';
import { createRepositories } from './index';
import {
  useAllTracks,
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

afterEach(async () => {
  await Promise.all(getDb().tables.map((t) => t.clear()));
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
