/**
 * The one call the app makes: restore the saved player, keep saving it, and start the audio
 * engine. Returns a function that stops all of it (tests, hot reload).
 */
import { setAutoplaySource, type AutoplaySource } from './autoplay';
import { startAudioEngine } from './engine';
import { startPersistence } from './persistence';
import type { PlayerTrack } from './types';

export interface StartPlayerOptions {
  /** The signed-in user's profile id, or null (their own uploads are never counted as plays). */
  currentUserId: () => string | null;
  /** Where a track's audio comes from (signed URLs of the listener's rendition). */
  sourceOf?: AudioSourceOf;
  /** Similar tracks when the queue ends (autoplay.ts); none: autoplay stops there. */
  autoplaySource?: AutoplaySource;
}

/** A track's audio URL; `prepare` readies the URLs of tracks likely to be played next. */
export interface AudioSourceOf {
  /** A URL known at once (a downloaded track) is returned as it is: the sound starts now. */
  (track: PlayerTrack): string | Promise<string>;
  prepare?(tracks: readonly PlayerTrack[]): void;
}

let running: (() => void) | null = null;
let prepare: ((tracks: readonly PlayerTrack[]) => void) | null = null;
let prime: ((track: PlayerTrack) => void) | null = null;
let primeReleased: (() => void) | null = null;

/**
 * Readies the audio of tracks on screen (a list the listener may click): their URLs are signed
 * ahead, so the click that plays one waits for no request before the audio (docs/player.md).
 */
export function prepareAudio(tracks: readonly PlayerTrack[]): void {
  prepare?.(tracks);
}

/**
 * A press on a track's play button, before its click: the track's audio starts loading now
 * (docs/player.md, "Loading from the press"). Nothing while no player runs.
 */
export function primeTrack(track: PlayerTrack): void {
  prime?.(track);
}

/** That press ended (released, cancelled): a click, if one comes, comes now. */
export function releasePrimedTrack(): void {
  primeReleased?.();
}

export function startPlayer(options: StartPlayerOptions): () => void {
  running?.();
  const stopPersistence = startPersistence();
  const engine = startAudioEngine(options);
  prepare = options.sourceOf?.prepare ?? null;
  setAutoplaySource(options.autoplaySource ?? null);
  prime = engine.prime;
  primeReleased = engine.primeReleased;
  const stop = () => {
    prepare = null;
    setAutoplaySource(null);
    prime = null;
    primeReleased = null;
    engine.stop();
    stopPersistence();
    if (running === stop) running = null;
  };
  running = stop;
  return stop;
}
