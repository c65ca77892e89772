/**
 * The ranked search's documents (docs/search.md, "Ranked search"): one per track, artist,
 * album and playlist. Artists and albums are derived from the tracks (a track's `artist` and
 * `album`), with the plays of their tracks summed for the popularity tie-breaker.
 */
import type { Playlist, Track } from '../../db/models';

export type SearchKind = 'track' | 'artist' | 'album' | 'playlist';

export interface SearchDoc {
  /** `${kind}:${key}`: unique across kinds. */
  id: string;
  kind: SearchKind;
  /** Track id, artist name, `${artist}\u0000${album}`, playlist id. */
  key: string;
  /** The title shown: track title, artist name, album title, playlist name. */
  name: string;
  /** Tracks and albums: the artist; playlists: nothing. */
  artist: string;
  /** Tracks: the album (null for a single). */
  album: string;
  genre: string;
  /** Tracks: the lyrics' text (weighted low). */
  lyrics: string;
  /** Popularity: a track's plays, an artist's or album's summed plays, a playlist's track count. */
  plays: number;
  /** Who uploaded it (tracks, artists, albums) or made it (playlists): follows boost these. */
  owner: string;
  /** Tracks: the track; albums and artists: their most played track (cover, play). */
  trackId: string | null;
  coverImage: string | null;
}

export const trackDocId = (trackId: string) => `track:${trackId}`;

/** The track's documents' fields (a track doc). */
export function trackDoc(t: Track, lyrics = ''): SearchDoc {
  return {
    id: trackDocId(t.id),
    kind: 'track',
    key: t.id,
    name: t.title,
    artist: t.artist,
    album: t.album ?? '',
    genre: t.genre ?? '',
    lyrics,
    plays: t.plays,
    owner: t.uploadedBy,
    trackId: t.id,
    coverImage: t.coverImage,
  };
}

export interface DocSources {
  tracks: readonly Track[];
  /** Lyrics text by track id. */
  lyrics?: ReadonlyMap<string, string>;
  playlists?: readonly Playlist[];
}

/** Adds `t` to the artist and album aggregates in `groups` (new ones are created). */
function addToGroups(groups: Map<string, SearchDoc>, faces: Map<string, number>, t: Track) {
  const add = (id: string, make: () => SearchDoc) => {
    const doc = groups.get(id);
    if (!doc) {
      groups.set(id, make());
      faces.set(id, t.plays);
      return;
    }
    doc.plays += t.plays;
    // The group's face (cover, play button) is its most played track.
    if (t.plays > (faces.get(id) ?? 0)) {
      faces.set(id, t.plays);
      doc.trackId = t.id;
      doc.coverImage = t.coverImage ?? doc.coverImage;
    }
  };
  const base = {
    artist: '',
    album: '',
    genre: t.genre ?? '',
    lyrics: '',
    plays: t.plays,
    owner: t.uploadedBy,
    trackId: t.id,
    coverImage: t.coverImage,
  };
  add(`artist:${t.artist}`, () => ({
    ...base,
    id: `artist:${t.artist}`,
    kind: 'artist',
    key: t.artist,
    name: t.artist,
  }));
  if (t.album) {
    const key = `${t.artist}\u0000${t.album}`;
    add(`album:${key}`, () => ({
      ...base,
      id: `album:${key}`,
      kind: 'album',
      key,
      name: t.album as string,
      artist: t.artist,
    }));
  }
}

/** Every document of the sources: tracks, then artists and albums, then playlists. */
export function buildSearchDocs({ tracks, lyrics, playlists = [] }: DocSources): SearchDoc[] {
  const docs = tracks.map((t) => trackDoc(t, lyrics?.get(t.id) ?? ''));
  const groups = new Map<string, SearchDoc>();
  const faces = new Map<string, number>();
  for (const t of tracks) addToGroups(groups, faces, t);
  // A loop, not push(...groups): at 100k tracks there are about 90,000 artist and album
  // documents, more arguments than a worker's stack holds (RangeError in Chromium).
  for (const group of groups.values()) docs.push(group);
  for (const p of playlists) {
    docs.push({
      id: `playlist:${p.id}`,
      kind: 'playlist',
      key: p.id,
      name: p.name,
      artist: '',
      album: '',
      genre: '',
      lyrics: p.description,
      plays: p.trackIds.length,
      owner: p.createdBy,
      trackId: p.trackIds[0] ?? null,
      coverImage: p.coverImage,
    });
  }
  return docs;
}

/** The documents `extra` adds to what `known` (document ids) already holds: server rows. */
export function extraDocs(extra: readonly Track[], known: (id: string) => boolean): SearchDoc[] {
  const docs: SearchDoc[] = [];
  const groups = new Map<string, SearchDoc>();
  const faces = new Map<string, number>();
  for (const t of extra) {
    if (known(trackDocId(t.id))) continue;
    docs.push(trackDoc(t));
    addToGroups(groups, faces, t);
  }
  for (const doc of groups.values()) if (!known(doc.id)) docs.push(doc);
  return docs;
}
