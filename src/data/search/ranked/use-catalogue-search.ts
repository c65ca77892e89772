/**
 * useCatalogueSearch: the ranked search of the top bar's dropdown and /explore's groups
 * (docs/search.md, "Ranked search"). The mirror's tracks, lyrics and playlists are indexed with
 * MiniSearch in a Web Worker (`search-client.ts`: started on first use, so neither it nor
 * MiniSearch is on the landing page); a keystroke costs this thread one message, and only the
 * latest text's answer comes back. Online, the server's ranked RPC is asked too (debounced); its tracks join
 * the index (by id: no duplicates) and the union is ranked together. Likes and follows of the
 * signed-in listener are a small boost.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useSessionUserId } from '../../auth/use-auth';
import { searchCatalogueRemote } from '../../remote/search-remote';
import { useFollowingIds, useLikedTrackIds } from '../../repositories/hooks';
import { useOnline } from '../use-online';
import type { RankedAnswer } from './engine';
import { getSearchClient, type ChannelAnswer } from './search-client';

/** Wait after the last keystroke before asking the server. */
export const RANKED_SERVER_DEBOUNCE_MS = 250;
const SERVER_PAGE = 20;
/** Shown (role=status) while the first build runs and results are partial. */
export const PREPARING_SEARCH = 'Preparing search…';

export interface CatalogueSearch extends RankedAnswer {
  /**
   * The first build is running (or no answer yet): the hits come from the part indexed so far
   * (the most played) and the server's rows; say "Preparing search…".
   */
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

/**
 * The ranked results for `text`. `suggest`: also offer a correction when nothing, or only part
 * of the words, matched (/explore's "Did you mean …?"; the dropdown does without).
 */
export function useCatalogueSearch(
  text: string,
  limit: number,
  { suggest = false }: { suggest?: boolean } = {},
): CatalogueSearch {
  const query = text.trim();
  const client = getSearchClient();
  const version = useSyncExternalStore(client.subscribe, client.getVersion, client.getVersion);
  const online = useOnline();
  const userId = useSessionUserId();
  const liked = useLikedTrackIds(userId);
  const following = useFollowingIds(userId);
  useEffect(() => {
    client.setPersonal(liked ?? [], following ?? []);
  }, [client, liked, following]);

  // The worker's latest answer for this box (older texts' answers are dropped by the channel).
  const [answered, setAnswered] = useState<ChannelAnswer | null>(null);
  const [channel] = useState(() => client.channel(setAnswered));
  useEffect(() => {
    channel.open();
    return () => channel.close();
  }, [channel]);
  useEffect(() => {
    if (query) channel.search(query, limit, suggest);
  }, [channel, query, limit, suggest, version]);

  // Server rows for this text: they join the worker's index, which then says it changed.
  const [servedKey, setServedKey] = useState<string | null>(null);
  useEffect(() => {
    if (!online || !query) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      searchCatalogueRemote(query, SERVER_PAGE, abort.signal).then(
        (tracks) => {
          client.addTracks(tracks);
          setServedKey(query);
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          console.warn('Server search failed; ranking the mirror only', error);
          setServedKey(query);
        },
      );
    }, RANKED_SERVER_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [client, online, query]);

  return useMemo(() => {
    if (!query) return EMPTY;
    const searchingServer = online && servedKey !== query;
    // Until this text's answer arrives, the previous one stays (no flicker while typing).
    if (!answered) return { ...EMPTY, indexing: true, searchingServer };
    const { preparing, ...answer } = answered.answer;
    return { ...answer, indexing: preparing, searchingServer };
  }, [query, answered, online, servedKey]);
}
