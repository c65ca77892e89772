/**
 * Server-side catalogue search (docs/search.md): RPC search_tracks, the newest `limit` tracks
 * whose title, artist, album or genre contains the text (migration 20261122004000). Throws on
 * failure (the caller keeps its local results).
 */
import { toTrack, type Track } from '../db';
import { getSupabase } from './client';

/** The server answers at most this many rows per search. */
export const REMOTE_SEARCH_MAX = 1000;

export async function searchTracksRemote(
  normalisedText: string,
  limit: number,
  signal?: AbortSignal,
): Promise<Track[]> {
  const client = await getSupabase();
  let call = client.rpc('search_tracks', {
    q: normalisedText,
    max_results: Math.min(limit, REMOTE_SEARCH_MAX),
  });
  if (signal) call = call.abortSignal(signal);
  const { data, error } = await call;
  if (error) throw new Error(error.message || 'Search failed');
  return (data ?? []).map(toTrack);
}
