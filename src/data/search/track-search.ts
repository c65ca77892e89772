/**
 * Catalogue search over the mirror's tracks (spec 2: title, artist, album, genre; trimmed,
 * case-insensitive). Pure: the index, the exact predicate, and the merge of local and server
 * matches. docs/search.md.
 */
import {
  createSubstringIndex,
  createSubstringIndexBuilder,
  fieldsContain,
  type SubstringIndex,
  type SubstringIndexBuilder,
} from '@/lib/substring-index';
import { sameValue } from '@/lib/same-value';
import type { Track } from '../db';

export { normaliseSearch } from '@/lib/substring-index';

export const trackSearchFields = (t: Track) => [t.title, t.artist, t.album, t.genre];

export type TrackSearchIndex = SubstringIndex<Track>;

/** The index over `tracks` (kept in their order: the mirror lists newest first). */
export const createTrackSearchIndex = (tracks: readonly Track[]): TrackSearchIndex =>
  createSubstringIndex(tracks, trackSearchFields);

export type TrackSearchIndexBuilder = SubstringIndexBuilder<Track>;

/** The same index, built a slice at a time; exact at every stage (src/lib/substring-index). */
export const createTrackSearchIndexBuilder = (tracks: readonly Track[]): TrackSearchIndexBuilder =>
  createSubstringIndexBuilder(tracks, trackSearchFields);

/**
 * `next` with the objects of `prev` kept for unchanged rows, and `prev` itself when nothing
 * changed: a live query's new read of the same rows then renders, indexes and sorts nothing.
 */
export function reuseUnchanged(
  prev: readonly Track[] | undefined,
  next: readonly Track[],
): readonly Track[] {
  if (!prev || prev.length === 0) return next;
  const byId = new Map(prev.map((t) => [t.id, t]));
  let same = prev.length === next.length;
  const out = next.map((t, i) => {
    const old = byId.get(t.id);
    if (old && sameValue(old, t)) {
      if (prev[i] !== old) same = false;
      return old;
    }
    same = false;
    return t;
  });
  return same ? prev : out;
}

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
