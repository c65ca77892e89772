/**
 * A playlist screen's read: the mirrored row, fetched on demand (a playlist of someone else is
 * not in the mirror), with a status that tells "still looking" from "does not exist". 'missing'
 * is only reported once the on-demand fetch has settled AND a read made after it finds nothing
 * (or the row disappears later, e.g. deleted in another tab); 'unavailable' when the fetch failed
 * (offline) and the mirror does not hold the row.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { Playlist } from '../db';
import { getDb } from '../db';
import { fetchOnDemand } from '../sync/app-sync';
import { playlistById } from './queries';

export type PlaylistLookup =
  | { status: 'loading'; playlist: null }
  | { status: 'found'; playlist: Playlist }
  | { status: 'missing'; playlist: null }
  | { status: 'unavailable'; playlist: null };

const RETRY_MS = 800;

interface Settled {
  id: string;
  failed: boolean;
}

export function usePlaylistLookup(
  id: string,
  fetchPlaylist: (id: string) => Promise<unknown> = fetchOnDemand.playlist,
): PlaylistLookup {
  const [settled, setSettled] = useState<Settled | null>(null);
  useEffect(() => {
    let active = true;
    // One retry after a short pause: a request racing the session's first refresh can fail
    // while the device is online, and 'unavailable' would then be a false alarm.
    fetchPlaylist(id)
      .catch(async (error: unknown) => {
        console.warn('Playlist fetch failed, retrying once', error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        return fetchPlaylist(id);
      })
      .then(
        () => false,
        () => true,
      )
      .then((failed) => {
        if (active) setSettled({ id, failed });
      });
    return () => {
      active = false;
    };
  }, [id, fetchPlaylist]);
  const current = settled?.id === id ? settled : null;
  // The settle state is a dependency, so the read that decides 'missing' runs after the fetch.
  const result = useLiveQuery(
    async () => ({
      playlist: await playlistById(getDb(), id).catch(() => null),
      after: current,
    }),
    [id, current],
  );
  if (result?.playlist) return { status: 'found', playlist: result.playlist };
  if (!result || !current || result.after !== current) return { status: 'loading', playlist: null };
  return { status: current.failed ? 'unavailable' : 'missing', playlist: null };
}
