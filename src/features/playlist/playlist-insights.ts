/**
 * The playlist page's side panels (spec: mood, audience, auto mix, shuffle are static text), made
 * useful from what the playlist holds: its genres, artists and runtime.
 */
export interface PlaylistInsights {
  /** Up to three most frequent genres, most frequent first (ties: first seen). */
  topGenres: string[];
  artistCount: number;
  /** Average track length in seconds (0 when empty). */
  averageDuration: number;
}

export function playlistInsights(
  tracks: readonly { genre?: string | null; artist: string; duration: number }[],
): PlaylistInsights {
  const genres = new Map<string, number>();
  for (const t of tracks) {
    const genre = t.genre?.trim();
    if (genre) genres.set(genre, (genres.get(genre) ?? 0) + 1);
  }
  const topGenres = [...genres.entries()]
    .map(([genre, count], order) => ({ genre, count, order }))
    .sort((a, b) => b.count - a.count || a.order - b.order)
    .slice(0, 3)
    .map((g) => g.genre);
  const total = tracks.reduce((s, t) => s + (Number.isFinite(t.duration) ? t.duration : 0), 0);
  return {
    topGenres,
    artistCount: new Set(tracks.map((t) => t.artist)).size,
    averageDuration: tracks.length ? total / tracks.length : 0,
  };
}
