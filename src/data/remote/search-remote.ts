/**
 * Server-side catalogue search (docs/search.md): RPC search_tracks, the newest `limit` tracks
 * whose title, artist, album or genre contains the text (migration 20261122004000), and RPC
 * search_catalogue, the ranked, typo-tolerant search (migration 20261130070000). Both throw on
 * failure (the caller keeps its local results).
 */
import { toTrack, type Track } from '../db';
import { getSupabase } from './client';

/** The server answers at most this many rows per search. */
export const REMOTE_SEARCH_MAX = 1000;
/** The ranked search's page (the RPC answers at most 100). */
export const CATALOGUE_SEARCH_MAX = 100;

async function callSearch(
  fn: 'search_tracks' | 'search_catalogue',
  q: string,
  maxResults: number,
  signal?: AbortSignal,
): Promise<Track[]> {
  const client = await getSupabase();
  let call = client.rpc(fn, { q, max_results: maxResults });
  if (signal) call = call.abortSignal(signal);
  const { data, error } = await call;
  if (error) throw new Error(error.message || 'Search failed');
  return (data ?? []).map(toTrack);
}

export const searchTracksRemote = (normalisedText: string, limit: number, signal?: AbortSignal) =>
  callSearch('search_tracks', normalisedText, Math.min(limit, REMOTE_SEARCH_MAX), signal);

/** The best `limit` tracks for the text, best first (merged into the local ranked index). */
export const searchCatalogueRemote = (text: string, limit: number, signal?: AbortSignal) =>
  callSearch('search_catalogue', text, Math.min(limit, CATALOGUE_SEARCH_MAX), signal);
