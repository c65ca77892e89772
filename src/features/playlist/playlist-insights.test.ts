// @vitest-environment node
import { expect, it } from 'vitest';
import { playlistInsights } from './playlist-insights';

it('derives top genres, artist count and average length', () => {
  const tracks = [
    { genre: 'Ambient', artist: 'A', duration: 100 },
    { genre: 'House', artist: 'B', duration: 200 },
    { genre: 'House', artist: 'A', duration: 300 },
    { genre: null, artist: 'C', duration: 400 },
    { genre: ' Jazz ', artist: 'C', duration: 0 },
    { genre: 'Lo-fi', artist: 'C', duration: 0 },
  ];
  expect(playlistInsights(tracks)).toEqual({
    topGenres: ['House', 'Ambient', 'Jazz'],
    artistCount: 3,
    averageDuration: 1000 / 6,
  });
});

it('is empty for an empty playlist', () => {
  expect(playlistInsights([])).toEqual({ topGenres: [], artistCount: 0, averageDuration: 0 });
});
