import type { Track } from './models';

/** A mirror track row for tests: every field set, `extra` overrides. */
export const testTrack = (id: string, extra: Partial<Track> = {}): Track => ({
  id,
  title: `Song ${id}`,
  artist: 'Someone',
  album: null,
  genre: null,
  duration: 120,
  audioUrl: 'x.mp3',
  coverImage: null,
  uploadedBy: 'u',
  plays: 0,
  verified: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  status: 'ready',
  processingStage: null,
  processingProgress: null,
  statusReason: null,
  waveformUrl: null,
  loudnessLufs: null,
  truePeakDb: null,
  qualities: [],
  ...extra,
});
