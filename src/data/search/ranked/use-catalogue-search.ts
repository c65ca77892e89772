/**
 * useCatalogueSearch: the ranked search of the top bar's dropdown and /explore's groups
 * (docs/search.md, "Ranked search"). The mirror's tracks, lyrics and playlists are indexed with
 * MiniSearch (loaded on first use: its chunk stays off the landing page), in chunks that yield
 * to the event loop. Online, the server's ranked RPC is asked too (debounced); its tracks join
 * the index (by id: no duplicates) and the union is ranked together. Likes and follows of the
 * signed-in listener are a small boost.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import { useSessionUserId } from '../../auth/use-auth';
import { getDb } from '../../db';
import { searchCatalogueRemote } from '../../remote/search-remote';
import { allTracks } from '../../repositories/queries';
import { useFollowingIds, useLikedTrackIds } from '../../repositories/hooks';
import { useOnline } from '../use-online';
import { buildSearchDocs } from './docs';
import type { CatalogueIndex, RankedAnswer } from './engine';

/** Wait after the last keystroke before asking the server. */
export const RANKED_SERVER_DEBOUNCE_MS = 250;
const SERVER_PAGE = 20;

export interface CatalogueSearch extends RankedAnswer {
  /** The index is still being built (nothing to rank yet). */
  indexing: boolean;
  /** The server is being asked (results may still change). */
  searchingServer: boolean;
  /** "Did you mean …?": set when nothing, or only part of the words, matched. */
  suggestion: string | null;
}

const EMPTY: CatalogueSearch = {
  hits: [],
  queryTerms: [],
  partial: false,
  indexing: false,
  searchingServer: false,
  suggestion: null,
};

async function readMirror() {
  const db = getDb();
  const [tracks, playlists, lyrics] = await Promise.all([
    allTracks(db),
    db.playlists.toArray(),
    db.lyrics.toArray(),
  ]);
  return {
    tracks,
    playlists,
    lyrics: new Map(lyrics.map((l) => [l.trackId, l.lines.map((x) => x.text).join('\n')])),
  };
}

/** One index per mirror read, built asynchronously; null while building. */
function useCatalogueIndex(): CatalogueIndex | null {
  const mirror = useLiveQuery(() => readMirror().catch(() => null), []);
  const [built, setBuilt] = useState<{ source: unknown; index: CatalogueIndex } | null>(null);
  useEffect(() => {
    if (!mirror) return;
    let cancelled = false;
    void import('./engine').then(async ({ CatalogueIndex: Index }) => {
      const index = new Index();
      await index.addAsync(buildSearchDocs(mirror));
      if (!cancelled) setBuilt({ source: mirror, index });
    });
    return () => {
      cancelled = true;
    };
  }, [mirror]);
  // The previous index keeps answering while a changed mirror is being indexed again.
  return built?.index ?? null;
}

export function useCatalogueSearch(text: string, limit: number): CatalogueSearch {
  const query = text.trim();
  const index = useCatalogueIndex();
  const online = useOnline();
  const userId = useSessionUserId();
  const liked = useLikedTrackIds(userId);
  const following = useFollowingIds(userId);
  const personal = useMemo(
    () => ({ likedTrackIds: new Set(liked), followedIds: new Set(following ?? []) }),
    [liked, following],
  );

  // Server rows for this text: added to the index, then everything is ranked again.
  const [served, setServed] = useState<{ key: string; count: number } | null>(null);
  useEffect(() => {
    if (!online || !query || !index) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      searchCatalogueRemote(query, SERVER_PAGE, abort.signal).then(
        (tracks) => {
          index.addTracks(tracks);
          setServed({ key: query, count: index.size });
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          console.warn('Server search failed; ranking the mirror only', error);
          setServed({ key: query, count: index.size });
        },
      );
    }, RANKED_SERVER_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [online, query, index]);

  const servedCount = served?.count;
  return useMemo(() => {
    if (!query) return EMPTY;
    if (!index) return { ...EMPTY, indexing: true };
    void servedCount; // re-rank when server rows joined the index
    const answer = index.search(query, { limit, personal });
    const suggestion = answer.hits.length === 0 || answer.partial ? index.suggest(query) : null;
    return {
      ...answer,
      indexing: false,
      searchingServer: online && served?.key !== query,
      suggestion,
    };
  }, [query, index, limit, personal, online, served?.key, servedCount]);
}
