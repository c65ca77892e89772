/**
 * Server-side catalogue search (docs/search.md): RPC search_tracks, the newest `limit` tracks
 * whose title, artist, album or genre contains the text (migration 20261122004000), and RPC
 * search_catalogue, the ranked, typo-tolerant search (migration 20261130070000). Both throw on
 * failure (the caller keeps its local results). Each names its RPC literally: the hostile-input
 * test finds the app's RPCs by their literal names.
 */
import { toTrack, type Track } from '../db';
import { getSupabase } from './client';

/** The server answers at most this many rows per search. */
export const REMOTE_SEARCH_MAX = 1000;
/** The ranked search's page (the RPC answers at most 100). */
export const CATALOGUE_SEARCH_MAX = 100;

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

/** The best `limit` tracks for the text, best first (merged into the local ranked index). */
export async function searchCatalogueRemote(
  text: string,
  limit: number,
  signal?: AbortSignal,
): Promise<Track[]> {
  const client = await getSupabase();
  let call = client.rpc('search_catalogue', {
    q: text,
    max_results: Math.min(limit, CATALOGUE_SEARCH_MAX),
  });
  if (signal) call = call.abortSignal(signal);
  const { data, error } = await call;
  if (error) throw new Error(error.message || 'Search failed');
  return (data ?? []).map(toTrack);
}
