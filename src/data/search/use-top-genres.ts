/**
 * The catalogue's most common genres (explore's genre chips), read from the mirror's `genre`
 * index alone (keys, not rows). Genres that differ only in case count as one, shown in their
 * most common spelling.
 */
import { getDb, type SoundloftDb } from '../db';
import { useStableLiveQuery } from '../repositories/hooks';

export interface GenreCount {
  genre: string;
  count: number;
}

export async function topGenres(db: SoundloftDb, limit: number): Promise<GenreCount[]> {
  const keys = (await db.tracks.orderBy('genre').keys()) as unknown[];
  const groups = new Map<string, { count: number; spellings: Map<string, number> }>();
  for (const key of keys) {
    if (typeof key !== 'string' || !key.trim()) continue;
    const genre = key.trim();
    const folded = genre.toLowerCase();
    let group = groups.get(folded);
    if (!group) groups.set(folded, (group = { count: 0, spellings: new Map() }));
    group.count++;
    group.spellings.set(genre, (group.spellings.get(genre) ?? 0) + 1);
  }
  const commonest = (spellings: Map<string, number>) =>
    [...spellings].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? '';
  return [...groups.values()]
    .map((g) => ({ genre: commonest(g.spellings), count: g.count }))
    .sort((a, b) => b.count - a.count || a.genre.localeCompare(b.genre))
    .slice(0, limit);
}

const EMPTY: GenreCount[] = [];

/** The chips' genres; a new read with the same answer keeps the previous array (no re-render). */
export const useTopGenres = (limit: number): GenreCount[] =>
  useStableLiveQuery(() => topGenres(getDb(), limit).catch(() => EMPTY), [limit]) ?? EMPTY;
