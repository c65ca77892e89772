import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { getDb } from '../db';
import { createRepositories } from './index';
import { usePlaylistLookup } from './use-playlist-lookup';

afterEach(async () => {
  await Promise.all(getDb().tables.map((t) => t.clear()));
});

function deferred() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

it('stays loading until the on-demand fetch settles, then reports missing', async () => {
  const fetch = deferred();
  const fetcher = () => fetch.promise;
  const { result } = renderHook(() => usePlaylistLookup('nope', fetcher));
  await new Promise((r) => setTimeout(r, 50));
  expect(result.current.status).toBe('loading');
  await act(async () => fetch.resolve());
  await waitFor(() => expect(result.current.status).toBe('missing'));
});

it('finds a row the fetch brought in, and reports missing once it is deleted', async () => {
  const repos = createRepositories({ db: getDb(), currentUserId: () => 'me' });
  const fetcher = () => Promise.resolve();
  const created = await repos.playlists.create('Mine');
  const { result } = renderHook(() => usePlaylistLookup(created.id, fetcher));
  await waitFor(() => expect(result.current.status).toBe('found'));
  expect(result.current.playlist?.name).toBe('Mine');
  await act(async () => repos.playlists.delete(created.id));
  await waitFor(() => expect(result.current.status).toBe('missing'));
});

it('reports unavailable when the fetch fails and the mirror lacks the row', async () => {
  const fetcher = () => Promise.reject(new Error('offline'));
  const { result } = renderHook(() => usePlaylistLookup('x', fetcher));
  await waitFor(() => expect(result.current.status).toBe('unavailable'));
});
