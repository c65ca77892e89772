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
  loudnessLufs: null,
  truePeakDb: null,
  qualities: [],
  ...extra,
});

/** The upload pipeline's columns of a server `tracks` row, as a processed track has them. */
export const PROCESSED_TRACK_COLUMNS = {
  status: 'ready' as string,
  processing_stage: null,
  processing_progress: null,
  status_reason: null,
  loudness_lufs: null,
  true_peak_db: null,
  sample_rate: null,
  channels: null,
  original_format: null,
  qualities: [] as string[],
};
