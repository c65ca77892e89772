/** What the ranked search indexes, read from the mirror: listed tracks, playlists, lyrics. */
import { getDb } from '../../db';
import { allTracks, recentTracks } from '../../repositories/queries';
import type { Track } from '../../db/models';
import type { DocSources } from './docs';

export async function readMirrorSources(): Promise<DocSources> {
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

/** How many of the newest tracks answer while the whole mirror is read (docs/search.md). */
export const QUICK_START_TRACKS = 5000;

/**
 * Cold start: the newest listed tracks, read by the `createdAt` index in a moment, while the
 * whole mirror takes seconds (7.6 s at 100,000 tracks). The host adds them like server rows, and
 * the first build makes them the mirror's.
 */
export function readQuickStart(): Promise<Track[]> {
  return recentTracks(getDb(), QUICK_START_TRACKS);
}
