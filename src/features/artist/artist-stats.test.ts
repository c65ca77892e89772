// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Track } from '@/data';
import { testTrack } from '@/data/db/test-track';
import {
  artistStats,
  byPlays,
  formatRuntime,
  groupAlbums,
  isVerifiedArtist,
  latestRelease,
} from './artist-stats';

const track = (overrides: Partial<Track>): Track =>
  testTrack(crypto.randomUUID(), {
    title: 'T',
    artist: 'A',
    album: null,
    genre: null,
    duration: 60,
    audioUrl: '/a.mp3',
    coverImage: null,
    uploadedBy: 'u1',
    plays: 0,
    verified: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  });

describe('artist stats', () => {
  it('counts tracks, plays and runtime (bad durations count as 0)', () => {
    const stats = artistStats([
      track({ plays: 10, duration: 3600 }),
      track({ plays: 5, duration: 330 }),
      track({ plays: 1, duration: Number.NaN }),
    ]);
    expect(stats).toEqual({ trackCount: 3, totalPlays: 16, runtime: 3930 });
  });

  it('formats runtime as Hh MMm', () => {
    expect(formatRuntime(3930)).toBe('1h 05m');
    expect(formatRuntime(59)).toBe('0h 00m');
    expect(formatRuntime(7 * 60 + 5)).toBe('0h 07m');
    expect(formatRuntime(-1)).toBe('0h 00m');
  });

  it('orders top tracks by plays, newest first on ties', () => {
    const a = track({ title: 'a', plays: 5, createdAt: '2026-01-01' });
    const b = track({ title: 'b', plays: 9 });
    const c = track({ title: 'c', plays: 5, createdAt: '2026-02-01' });
    expect(byPlays([a, b, c]).map((t) => t.title)).toEqual(['b', 'c', 'a']);
  });

  it("groups albums by name with 'Singles' as the fallback, newest first, Singles last", () => {
    const groups = groupAlbums([
      track({ title: 's1', album: null, createdAt: '2026-05-01' }),
      track({ title: 'o2', album: 'Old', createdAt: '2025-01-02' }),
      track({ title: 'o1', album: 'Old', createdAt: '2025-01-01' }),
      track({ title: 'n1', album: 'New', createdAt: '2026-03-01' }),
      track({ title: 's2', album: '  ', createdAt: '2026-04-01' }),
    ]);
    expect(groups.map((g) => g.name)).toEqual(['New', 'Old', 'Singles']);
    expect(groups[1]?.tracks.map((t) => t.title)).toEqual(['o1', 'o2']);
    expect(groups[2]?.tracks).toHaveLength(2);
  });

  it('finds the latest release and the verified badge', () => {
    const old = track({ createdAt: '2025-01-01', verified: true });
    const fresh = track({ createdAt: '2026-01-01' });
    expect(latestRelease([old, fresh])).toBe(fresh);
    expect(latestRelease([])).toBeNull();
    expect(isVerifiedArtist([old, fresh])).toBe(true);
    expect(isVerifiedArtist([fresh])).toBe(false);
  });
});
