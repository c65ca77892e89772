/**
 * Reads of the track page that need to tell "still loading" from "not there": one track (fetched
 * from the server on demand when the mirror does not hold it yet, e.g. before the first pull),
 * and a track's lyrics with a load state ('Unable to load lyrics' when neither the server nor
 * the mirror has an answer).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { getDb, type Lyrics, type Track } from '../db';
import { getSupabase } from '../remote/client';
import { createSyncRemote } from '../remote/sync-remote';
import { currentEngine, fetchOnDemand } from '../sync/app-sync';
import { refreshTracks } from '../sync/refetch';
import * as q from './queries';

const remote = createSyncRemote(getSupabase);

/** fetchOnDemand for one track: the server's row into the mirror (no row: nothing changes). */
export const fetchTrackOnDemand = (id: string): Promise<void> =>
  refreshTracks({ db: getDb(), remote, userId: currentEngine()?.userId ?? null }, [id]);

type Fetch = 'pending' | 'done' | 'failed';

/** Runs `load` once per key; its state for that key (a new key starts pending). */
function useFetchState(key: string, load: (key: string) => Promise<void>): Fetch {
  const [state, setState] = useState<{ key: string; fetch: Fetch }>({ key, fetch: 'pending' });
  useEffect(() => {
    let live = true;
    load(key).then(
      () => live && setState({ key, fetch: 'done' }),
      (error: unknown) => {
        console.warn('On-demand fetch failed', error);
        if (live) setState({ key, fetch: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [key, load]);
  return state.key === key ? state.fetch : 'pending';
}

export type TrackLoad =
  | { status: 'loading'; track: null }
  | { status: 'found'; track: Track }
  | { status: 'missing'; track: null };

/** One track: found in the mirror, or loading until the server answered, then missing. */
export function useTrack(id: string): TrackLoad {
  const row = useLiveQuery(
    () =>
      getDb()
        .tracks.get(id)
        .then((t) => t ?? null)
        .catch(() => null),
    [id],
  );
  const fetch = useFetchState(id, fetchTrackOnDemand);
  if (row) return { status: 'found', track: row };
  if (row === undefined || fetch === 'pending') return { status: 'loading', track: null };
  return { status: 'missing', track: null };
}

export type LyricsLoad =
  | { status: 'loading'; lyrics: null }
  | { status: 'ready'; lyrics: Lyrics | null }
  | { status: 'error'; lyrics: null };

const fetchLyrics = (trackId: string) => fetchOnDemand.lyrics(trackId);

/**
 * A track's lyrics, fresh from the server when reachable; the mirror's copy otherwise (offline).
 * 'error' only when the server failed and the mirror has none.
 */
export function useLyricsLoad(trackId: string): LyricsLoad {
  const row = useLiveQuery(() => q.lyricsOf(getDb(), trackId).catch(() => null), [trackId]);
  const fetch = useFetchState(trackId, fetchLyrics);
  if (row) return { status: 'ready', lyrics: row };
  if (row === undefined || fetch === 'pending') return { status: 'loading', lyrics: null };
  if (fetch === 'failed') return { status: 'error', lyrics: null };
  return { status: 'ready', lyrics: null };
}
