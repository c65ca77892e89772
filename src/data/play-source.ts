/**
 * Where a listen came from (docs/insights.md): noted from the page on screen when a track
 * starts, sent with the listen once it is recorded (`record_play_source`). The server keeps it
 * only for a listen it judged with evidence, never 'offline' for an online listen, and
 * 'playlist' only with a playlist that holds the track.
 */
import type { PlaySource } from '@/data/remote/insights-remote';

export interface NotedSource {
  source: Exclude<PlaySource, 'offline'>;
  playlistId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The page this app was opened on: a track page opened first came from a shared link. */
const landing = typeof location === 'undefined' ? '' : location.pathname;

/** The source a page implies: /explore?q= (search), /explore, /playlist/<id>, /artist/<name>. */
export function sourceOfPage(pathname: string, search: string, landingPath = landing): NotedSource {
  const parts = pathname.split('/').filter(Boolean);
  if (parts[0] === 'explore')
    return {
      source: new URLSearchParams(search).get('q') ? 'search' : 'explore',
      playlistId: null,
    };
  if (parts[0] === 'playlist' && parts[1] && UUID.test(parts[1]))
    return { source: 'playlist', playlistId: parts[1] };
  if (parts[0] === 'artist') return { source: 'artist_page', playlistId: null };
  if (parts[0] === 'track' && pathname === landingPath)
    return { source: 'shared_link', playlistId: null };
  return { source: 'other', playlistId: null };
}

const noted = new Map<string, NotedSource>();

/** Notes where the track that just started came from (the page on screen now). */
export function noteTrackStarted(trackId: string): void {
  noted.set(trackId, sourceOfPage(location.pathname, location.search));
}

export function notedSource(trackId: string): NotedSource {
  return noted.get(trackId) ?? { source: 'other', playlistId: null };
}

/**
 * Sends the noted source of a recorded online listen. A playlist the server does not accept
 * for the track (the queue moved on to a track of another list) is sent as 'other'. Best
 * effort: a listen without a source is shown as 'Other'.
 */
export function sendPlaySource(trackId: string, sessionId: string): void {
  const { source, playlistId } = notedSource(trackId);
  void import('@/data/remote/insights-remote')
    .then(({ recordPlaySource }) =>
      recordPlaySource(trackId, sessionId, source, playlistId).catch(() =>
        source === 'playlist' ? recordPlaySource(trackId, sessionId, 'other', null) : undefined,
      ),
    )
    .catch((error: unknown) => console.warn('Failed to record where a listen came from', error));
}
