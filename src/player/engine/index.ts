/** The audio engine on HTML5 audio elements and the browser's Media Session. */
import { createElementBackend } from './element-backend';
import { browserMediaSession } from './media-session';
import { PlayerEngine, type EngineOptions } from './player-engine';
import type { PlayerTrack } from '../types';

export { PlayerEngine, TICK_MS, type EngineOptions } from './player-engine';
export { ListenTracker, LISTEN_THRESHOLD_SECONDS } from './listen-tracker';
export { MediaSessionBridge, type MediaSessionLike } from './media-session';
export type { AudioBackend, Sound, SoundEvents } from './audio-backend';

let running: PlayerEngine | null = null;

/** Starts the engine; returns a function that stops it and frees the audio. */
export function startAudioEngine(
  options: Pick<EngineOptions, 'currentUserId' | 'sourceOf'>,
): () => void {
  const engine = new PlayerEngine({
    backend: createElementBackend(),
    currentUserId: options.currentUserId,
    sourceOf: options.sourceOf,
    mediaSession: browserMediaSession(),
  });
  const stop = engine.start();
  running = engine;
  return () => {
    if (running === engine) running = null;
    stop();
  };
}

/**
 * A press on a track's play button, before its click (PlayerEngine.prime): the track's element
 * starts loading now. Nothing without a running engine.
 */
export function primeTrack(track: PlayerTrack): void {
  running?.prime(track);
}
