/**
 * One track's audio (synthesis + MP3 encoding): the unit of work of the generator's workers.
 * Pure: the same job always gives the same bytes.
 */
import { AUDIO_FORMAT, encodeMp3 } from './mp3';
import type { GenreId } from './music/genres';
import { renderSong } from './music/render';

export interface TrackJob {
  key: string;
  genre: GenreId;
  seconds: number;
  seed: string;
}

export interface TrackAudio {
  key: string;
  mp3: Uint8Array;
  /** Length of the rendered audio, seconds. */
  durationSeconds: number;
  bpm: number;
  barSeconds: number;
  /** Start of every verse / chorus melody phrase, seconds (lyrics align to these). */
  phrases: { t: number; kind: 'verse' | 'chorus' }[];
}

export function renderTrack(job: TrackJob): TrackAudio {
  const song = renderSong(job.genre, job.seconds, job.seed, AUDIO_FORMAT.sampleRate);
  return {
    key: job.key,
    mp3: encodeMp3(song.samples),
    durationSeconds: song.samples.length / song.sampleRate,
    bpm: song.bpm,
    barSeconds: song.barSeconds,
    phrases: song.phrases,
  };
}
