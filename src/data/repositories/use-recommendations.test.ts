// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { HistoryEntry, Track } from '../db';
import { testTrack } from '../db/test-track';
import { recommendationSeeds } from './use-recommendations';

const track = (id: string): Track =>
  testTrack(id, {
    title: `Track ${id}`,
    artist: 'Artist',
    album: null,
    genre: null,
    duration: 60,
    audioUrl: `/a/${id}.mp3`,
    coverImage: null,
    uploadedBy: 'u',
    plays: 0,
    verified: true,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  });
const listen = (trackId: string, n: number): HistoryEntry => ({
  id: `h${n}`,
  userId: 'me',
  trackId,
  listenedAt: `2026-11-0${n}T00:00:00.000Z`,
});

describe('recommendationSeeds', () => {
  const catalogue = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(track);

  it('sends the recently played tracks, distinct, in history order', () => {
    const seeds = recommendationSeeds([listen('c', 3), listen('a', 2), listen('c', 1)], catalogue);
    expect(seeds.map((t) => t.id)).toEqual(['c', 'a']);
  });

  it('falls back to the first 5 tracks of the catalogue without (known) history', () => {
    expect(recommendationSeeds([], catalogue).map((t) => t.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(recommendationSeeds([listen('gone', 1)], catalogue)).toHaveLength(5);
    expect(recommendationSeeds([], [])).toEqual([]);
  });
});
