import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { getDb } from '../db';
import { createRepositories } from './index';
import { useAllTracks, useLikedTrackIds, usePlaylists } from './hooks';

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
