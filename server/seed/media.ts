/**
 * One track's audio (synthesis + MP3 encoding, then the upload pipeline's processing): the unit
 * of work of the generator's workers. Pure: the same job always gives the same bytes.
 */
import type { ProcessedAudio } from '../processing/process-audio';
import { AUDIO_FORMAT, encodeMp3 } from './mp3';
import type { GenreId } from './music/genres';
import { renderSong } from './music/render';

export interface TrackJob {
  key: string;
  genre: GenreId;
  seconds: number;
  seed: string;
}

/** What processing measured and made (as for an upload), without its timings. */
export type SeedProcessed = Omit<ProcessedAudio, 'timings'>;

export interface TrackAudio {
  key: string;
  mp3: Uint8Array;
  /** Length of the rendered audio, seconds. */
  durationSeconds: number;
  bpm: number;
  barSeconds: number;
  /** Start of every verse / chorus melody phrase, seconds (lyrics align to these). */
  phrases: { t: number; kind: 'verse' | 'chorus' }[];
  /**
   * The upload pipeline's result for this MP3 (peaks, loudness, renditions); null when it could
   * not run (no worker threads): the track is then inserted in processing and the job queue
   * processes it like an upload.
   */
  processed: SeedProcessed | null;
}

/** Synthesis and encoding only. */
export async function renderTrack(job: TrackJob): Promise<TrackAudio> {
  const song = renderSong(job.genre, job.seconds, job.seed, AUDIO_FORMAT.sampleRate);
  return {
    key: job.key,
    mp3: await encodeMp3(song.samples),
    durationSeconds: song.samples.length / song.sampleRate,
    bpm: song.bpm,
    barSeconds: song.barSeconds,
    phrases: song.phrases,
    processed: null,
  };
}
