/**
 * Catalogue search over the mirror's tracks (spec 2: title, artist, album, genre; trimmed,
 * case-insensitive). Pure: the index, the exact predicate, and the merge of local and server
 * matches. docs/search.md.
 */
import { createSubstringIndex, fieldsContain, type SubstringIndex } from '@/lib/substring-index';
import type { Track } from '../db';

export { normaliseSearch } from '@/lib/substring-index';

export const trackSearchFields = (t: Track) => [t.title, t.artist, t.album, t.genre];

export type TrackSearchIndex = SubstringIndex<Track>;

/** The index over `tracks` (kept in their order: the mirror lists newest first). */
export const createTrackSearchIndex = (tracks: readonly Track[]): TrackSearchIndex =>
  createSubstringIndex(tracks, trackSearchFields);

/** The exact filter of spec 2 for one track (`normalised`: trimmed, lower-cased; '' = all). */
export const trackMatches = (track: Track, normalised: string) =>
  normalised === '' || fieldsContain(trackSearchFields(track), normalised);

/** Newest first, then id descending: the mirror's order and the server's `order`. */
export function newestFirst(a: Track, b: Track): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * Local matches (all of them, newest first) plus the server's rows that match and the mirror
 * does not hold, newest first. The local row wins when both have a track.
 */
export function mergeMatches(
  local: readonly Track[],
  remote: readonly Track[],
  normalised: string,
): readonly Track[] {
  if (remote.length === 0) return local;
  const seen = new Set(local.map((t) => t.id));
  const extra = remote.filter((t) => !seen.has(t.id) && trackMatches(t, normalised));
  if (extra.length === 0) return local;
  extra.sort(newestFirst);
  const out: Track[] = [];
  let i = 0;
  let j = 0;
  while (i < local.length || j < extra.length) {
    const a = local[i];
    const b = extra[j];
    if (b === undefined || (a !== undefined && newestFirst(a, b) <= 0)) {
      out.push(a as Track);
      i++;
    } else {
      out.push(b);
      j++;
    }
  }
  return out;
}
