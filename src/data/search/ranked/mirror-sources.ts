/** What the ranked search indexes, read from the mirror: listed tracks, playlists, lyrics. */
import { getDb } from '../../db';
import { allTracks } from '../../repositories/queries';
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
