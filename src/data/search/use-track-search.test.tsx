import type * as AppSyncModule from '../sync/app-sync';
import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb, markMirrorFilled, type Track } from '../db';
import { testTrack } from '../db/test-track';
import { searchTracksRemote } from '../remote/search-remote';
import { mergeMatches } from './track-search';
import { useTrackSearch } from './use-track-search';

const { sync, statusSelector } = vi.hoisted(() => {
  const sync = {
    lastPulledAt: null as number | null,
    lastError: null as string | null,
    phase: 'idle' as 'idle' | 'syncing' | 'offline',
  };
  const statusSelector = <T,>(select: (status: typeof sync) => T) => select({ ...sync });
  return { sync, statusSelector };
});
vi.mock('../sync', () => ({ useSyncStatusSelector: statusSelector }));
vi.mock('../sync/app-sync', async (importOriginal) => ({
  ...(await importOriginal<typeof AppSyncModule>()),
  useSyncStatusSelector: statusSelector,
}));
const USER = 'listener-1';
vi.mock('../auth/auth-store', () => ({
  authStore: { getSnapshot: () => ({ session: { user: { id: 'listener-1' } } }) },
}));
vi.mock('../remote/search-remote', () => ({
  REMOTE_SEARCH_MAX: 1000,
  searchTracksRemote: vi.fn(),
}));
const remote = vi.mocked(searchTracksRemote);

function track(id: string, title: string, minute: number, extra: Partial<Track> = {}): Track {
  const at = new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
  return testTrack(id, { title, createdAt: at, updatedAt: at, ...extra });
}

const local = [
  track('a', 'Neon Lights', 1),
  track('b', 'Midnight', 2, { artist: 'The Neons' }),
  track('c', 'Calm', 3, { genre: 'Ambient' }),
];

beforeEach(async () => {
  Object.assign(sync, { lastPulledAt: Date.now(), lastError: null, phase: 'idle' });
  remote.mockReset();
  await getDb().tracks.bulkPut(local);
  // A mirror that has had its first full pull (the mark pullAll writes after the last table).
  await markMirrorFilled(getDb(), USER);
});
afterEach(async () => {
  await Promise.all(getDb().tables.map((t) => t.clear()));
});

const ids = (tracks: readonly Track[]) => tracks.map((t) => t.id);

describe('useTrackSearch', () => {
  it('answers from the mirror, newest first, without the server once a pull finished', async () => {
    const { result, rerender } = renderHook(({ q }) => useTrackSearch(q, 100), {
      initialProps: { q: '' },
    });
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(ids(result.current.tracks)).toEqual(['c', 'b', 'a']));
    expect(result.current.total).toBe(3);
    rerender({ q: '  NEON ' });
    expect(ids(result.current.tracks)).toEqual(['b', 'a']);
    rerender({ q: 'ambient' });
    expect(ids(result.current.tracks)).toEqual(['c']);
    rerender({ q: 'nothing' });
    expect(result.current).toMatchObject({ tracks: [], total: 0, loading: false });
    await new Promise((r) => setTimeout(r, 300));
    expect(remote).not.toHaveBeenCalled();
  });

  it('keeps its answer when the mirror is rewritten with the same rows; follows real changes', async () => {
    const { result } = renderHook(() => useTrackSearch('neon', 100));
    await waitFor(() => expect(ids(result.current.tracks)).toEqual(['b', 'a']));
    const first = result.current.tracks;
    await act(() => getDb().tracks.bulkPut(local.map((t) => ({ ...t }))));
    await new Promise((r) => setTimeout(r, 50));
    expect(result.current.tracks).toBe(first);
    await act(() => getDb().tracks.put(track('d', 'Neon Again', 4)));
    await waitFor(() => expect(ids(result.current.tracks)).toEqual(['d', 'b', 'a']));
    expect(result.current.tracks[1]).toBe(first[0]);
  });

  it('limits the rows and says when there are more', async () => {
    const { result } = renderHook(() => useTrackSearch('', 2));
    await waitFor(() => expect(ids(result.current.tracks)).toEqual(['c', 'b']));
    expect(result.current).toMatchObject({ total: 3, hasMore: true });
  });

  it('merges the server matches while the mirror may be incomplete', async () => {
    sync.lastPulledAt = null;
    const server = [track('z', 'Neon Nights', 9), track('b', 'Midnight', 2), track('y', 'Off', 8)];
    let answer: (rows: Track[]) => void = () => {};
    remote.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const { result } = renderHook(() => useTrackSearch('neon', 100));
    await waitFor(() => expect(ids(result.current.tracks)).toEqual(['b', 'a']));
    // The mirror's matches show while the server is asked; nothing is called missing.
    expect(result.current).toMatchObject({ loading: false, searchingServer: true });
    await waitFor(() => expect(remote).toHaveBeenCalledWith('neon', 100, expect.anything()));
    act(() => answer(server));
    // 'y' does not match 'neon' (the server may send extra rows): dropped.
    await waitFor(() => expect(ids(result.current.tracks)).toEqual(['z', 'b', 'a']));
    expect(result.current).toMatchObject({ total: 3, searchingServer: false, hasMore: false });
  });

  it('shows loading only while nothing is there and the server is still coming', async () => {
    sync.lastPulledAt = null;
    await getDb().tracks.clear();
    let answer: (rows: Track[]) => void = () => {};
    remote.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const { result } = renderHook(() => useTrackSearch('neon', 100));
    await waitFor(() => expect(remote).toHaveBeenCalled());
    expect(result.current.loading).toBe(true);
    act(() => answer([]));
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.total).toBe(0);
  });

  it('keeps the mirror results when the server fails', async () => {
    sync.lastPulledAt = null;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    remote.mockRejectedValue(new Error('offline'));
    const { result } = renderHook(() => useTrackSearch('neon', 100));
    await waitFor(() => expect(result.current.searchingServer).toBe(false));
    expect(ids(result.current.tracks)).toEqual(['b', 'a']);
    warn.mockRestore();
  });

  it("right after sign-in, never says '0 tracks found' between the pull's end and the mirror read", async () => {
    // A first visit: empty mirror, not filled, the first pull running; the server answers.
    sync.lastPulledAt = null;
    await Promise.all(getDb().tables.map((t) => t.clear()));
    remote.mockResolvedValue(local);
    const { result, rerender } = renderHook(() => useTrackSearch('', 100));
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(ids(result.current.tracks)).toEqual(['c', 'b', 'a']));
    // The pull's status says done before the live read of the mirror has its rows (before this
    // fix the page went to 'no matches' here: total 0, not loading).
    sync.lastPulledAt = Date.now();
    rerender();
    expect(result.current).toMatchObject({ total: 3, loading: false });
    expect(ids(result.current.tracks)).toEqual(['c', 'b', 'a']);
    // The pull lands (rows, then its mark): the mirror answers alone from then on.
    remote.mockClear();
    await act(async () => {
      await getDb().tracks.bulkPut(local.map((t) => ({ ...t })));
      await markMirrorFilled(getDb(), USER);
    });
    await waitFor(() => expect(result.current.searchingServer).toBe(false));
    expect(result.current).toMatchObject({ total: 3, loading: false });
    await new Promise((r) => setTimeout(r, 300));
    expect(remote).not.toHaveBeenCalled();
  });

  it('a first visit whose server search failed waits for the first pull, then tells an empty catalogue', async () => {
    sync.lastPulledAt = null;
    await Promise.all(getDb().tables.map((t) => t.clear()));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    remote.mockRejectedValue(new Error('busy'));
    const { result, rerender } = renderHook(() => useTrackSearch('', 100));
    await waitFor(() => expect(result.current.searchingServer).toBe(false));
    // The mirror is empty but not filled and the pull is still running: skeletons.
    expect(result.current.loading).toBe(true);
    // The pull lands with an empty catalogue: the spec's empty state, not skeletons forever.
    sync.lastPulledAt = Date.now();
    await act(() => markMirrorFilled(getDb(), USER));
    rerender();
    await waitFor(() => expect(result.current).toMatchObject({ loading: false, total: 0 }));
    warn.mockRestore();
  });

  it('offline on a first visit: no skeletons forever, the empty answer shows', async () => {
    Object.assign(sync, { lastPulledAt: null, phase: 'offline' });
    await Promise.all(getDb().tables.map((t) => t.clear()));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    remote.mockRejectedValue(new Error('offline'));
    const { result } = renderHook(() => useTrackSearch('', 100));
    await waitFor(() => expect(result.current).toMatchObject({ loading: false, total: 0 }));
    warn.mockRestore();
  });
});

describe('mergeMatches', () => {
  it('keeps newest-first order and prefers the local row', () => {
    const mine = [track('c', 'x neon', 3), track('a', 'neon', 1)];
    const theirs = [
      track('d', 'neon d', 4),
      track('c', 'neon (server)', 3),
      track('b', 'neon b', 2),
    ];
    const merged = mergeMatches(mine, theirs, 'neon');
    expect(ids(merged)).toEqual(['d', 'c', 'b', 'a']);
    expect(merged[1]?.title).toBe('x neon');
    expect(mergeMatches(mine, [], 'neon')).toBe(mine);
  });
});
