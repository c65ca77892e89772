/**
 * useTrackSearch: the explore screen's search (docs/search.md). Local first: an in-memory index
 * over the mirror answers every keystroke. The index is built in idle time, a few milliseconds
 * at a time, and answers exactly while it is still being built (rows not yet indexed are checked
 * one by one), so nothing waits for it and no build step blocks the page. While the mirror may not hold the whole catalogue (no
 * pull has finished in this session) and the browser is online, the server is asked too
 * (debounced), and its matches are merged in. Results already shown stay while it answers.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import { getDb, type Track } from '../db';
import { REMOTE_SEARCH_MAX, searchTracksRemote } from '../remote/search-remote';
import { allTracks } from '../repositories/queries';
import { mayStillFill, signedInMirrorFilled } from '../repositories/hooks';
import { useSyncStatusSelector, type SyncStatus } from '../sync';
import { buildInSlices } from './build-in-slices';
import {
  createTrackSearchIndexBuilder,
  mergeMatches,
  normaliseSearch,
  reuseUnchanged,
} from './track-search';
import { useOnline } from './use-online';

/** Server rows asked for at least (more when the screen shows more). */
export const SERVER_PAGE = 100;
/** Wait after the last keystroke before asking the server. */
export const SERVER_DEBOUNCE_MS = 250;

export interface TrackSearch {
  /** The first `limit` matches, newest first. */
  tracks: readonly Track[];
  /** Every match known (local and server rows merged). */
  total: number;
  /** More matches than `tracks`: known ones beyond `limit`, or a full page from the server. */
  hasMore: boolean;
  /** True only while nothing can be shown yet and an answer is still coming. */
  loading: boolean;
  /** The server is being asked (results may still grow). */
  searchingServer: boolean;
}

interface ServerAnswer {
  key: string;
  tracks: Track[];
  /** The server had at least this many (a full page): there may be more. */
  full: boolean;
}

const NONE: readonly Track[] = [];

const pulledOnce = (status: SyncStatus) => status.lastPulledAt !== null;

interface MirrorRead {
  tracks: readonly Track[];
  /** Read after the user's first full pull had landed (isMirrorFilled), in the same query. */
  filled: boolean;
}

/**
 * The mirror's tracks, newest first (undefined until the first read). A new read that changed
 * nothing (a sync pull rewriting the same rows) returns the previous array, so nothing downstream
 * re-renders or re-indexes; unchanged rows keep their objects when something did change.
 */
function useMirrorTracks(): MirrorRead | undefined {
  const previous = useRef<readonly Track[] | undefined>(undefined);
  return useLiveQuery(async () => {
    const filled = await signedInMirrorFilled();
    const rows = await allTracks(getDb()).catch(() => [] as Track[]);
    previous.current = reuseUnchanged(previous.current, rows);
    return { tracks: previous.current, filled };
  }, []);
}

export function useTrackSearch(text: string, limit: number): TrackSearch {
  const query = normaliseSearch(text);
  const read = useMirrorTracks();
  const mirror = read?.tracks;
  const online = useOnline();
  const pulled = useSyncStatusSelector(pulledOnce);
  const filling = useSyncStatusSelector(mayStillFill);
  // The server is asked until this session's pull has landed and the mirror read shows it: the
  // status says 'pulled' a moment before the live read has the rows, and a first visit's empty
  // mirror read in that moment said '0 tracks found' (now the server's answer stays meanwhile).
  const mirrorComplete = pulled && read?.filled === true;
  const askServer = online && !mirrorComplete;
  // A first visit's mirror is empty until its first full pull lands: not an answer yet.
  const mirrorPending = read !== undefined && !read.filled && filling;

  // One index per mirror read that changed something; built in idle slices, exact meanwhile.
  const builder = useMemo(() => (mirror ? createTrackSearchIndexBuilder(mirror) : null), [mirror]);
  useEffect(() => (builder && !builder.done ? buildInSlices(builder) : undefined), [builder]);
  const local = useMemo(() => {
    if (!mirror) return undefined;
    if (!query || !builder) return mirror;
    return builder.index.search(query);
  }, [mirror, query, builder]);

  const serverLimit = Math.max(SERVER_PAGE, limit);
  const key = `${serverLimit}|${query}`;
  const [answer, setAnswer] = useState<ServerAnswer | null>(null);
  const [failedKey, setFailedKey] = useState<string | null>(null);
  useEffect(() => {
    if (!askServer) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      searchTracksRemote(query, serverLimit, abort.signal).then(
        (tracks) =>
          setAnswer({
            key,
            tracks,
            full: tracks.length >= serverLimit && serverLimit < REMOTE_SEARCH_MAX,
          }),
        (error: unknown) => {
          if (abort.signal.aborted) return;
          console.warn('Server search failed; showing the mirror', error);
          setFailedKey(key);
        },
      );
    }, SERVER_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [askServer, key, query, serverLimit]);

  const merged = useMemo(() => {
    if (!askServer || !answer) return local;
    // Matching rows of an earlier answer stay until the new answer comes (nothing flickers out);
    // the server's rows show even while the mirror is still being read.
    return mergeMatches(local ?? [], answer.tracks, query);
  }, [local, askServer, answer, query]);

  const current = askServer && answer?.key === key ? answer : null;
  const pending = askServer && !current && failedKey !== key;
  const known = merged?.length ?? 0;
  const tracks = useMemo(() => (merged ? merged.slice(0, limit) : NONE), [merged, limit]);
  return {
    tracks,
    total: known,
    hasMore: known > limit || Boolean(current?.full),
    // An answer from the server is one (it searched the whole catalogue), even with no match.
    loading: known === 0 && (merged === undefined || pending || (mirrorPending && !current)),
    searchingServer: pending,
  };
}
