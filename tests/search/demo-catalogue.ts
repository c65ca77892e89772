/**
 * The demo catalogue (server/seed) as the mirror would hold it for a listener: its published
 * tracks, lyrics and public playlists, as search documents (docs/search.md, "Relevance").
 */
import { buildCatalogue } from '../../server/seed/catalogue';
import type { Playlist, Track } from '../../src/data/db/models';
import { testTrack } from '../../src/data/db/test-track';
import { buildSearchDocs, type SearchDoc } from '../../src/data/search/ranked/docs';

export interface DemoSearchCatalogue {
  tracks: Track[];
  playlists: Playlist[];
  lyrics: Map<string, string>;
  docs: SearchDoc[];
}

export function demoSearchCatalogue(): DemoSearchCatalogue {
  const c = buildCatalogue();
  const published = c.tracks.filter((t) => t.verified);
  const tracks: Track[] = published.map((t, i) =>
    testTrack(t.key, {
      title: t.title,
      artist: t.artistName,
      album: t.album,
      genre: t.genreLabel,
      duration: t.seconds,
      uploadedBy: t.artistKey,
      plays: t.plays,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    }),
  );
  const byTitle = new Map(published.map((t) => [t.title, t.key]));
  const lyrics = new Map(
    published
      .filter((t) => t.lyrics)
      .map((t) => [t.key, [...t.lyrics!.verses, ...t.lyrics!.chorus].join('\n')]),
  );
  const playlists: Playlist[] = c.playlists.map((p, i) => ({
    id: `playlist-${i}`,
    name: p.name,
    description: p.description,
    coverImage: null,
    createdBy: p.owner,
    trackIds: p.tracks.map((title) => byTitle.get(title)).filter((id): id is string => !!id),
    createdAt: new Date(Date.UTC(2026, 0, 2)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, 2)).toISOString(),
  }));
  return { tracks, playlists, lyrics, docs: buildSearchDocs({ tracks, lyrics, playlists }) };
}

/** A document's label in the relevance set: `kind:name` ('track:Harbor Lights'). */
export const docLabel = (doc: SearchDoc) => `${doc.kind}:${doc.name}`;
