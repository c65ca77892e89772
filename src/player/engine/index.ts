/** The audio engine on HTML5 audio elements and the browser's Media Session. */
import { createElementBackend } from './element-backend';
import { browserMediaSession } from './media-session';
import { PlayerEngine, type EngineOptions } from './player-engine';
import type { PlayerTrack } from '../types';

export { PlayerEngine, TICK_MS, type EngineOptions } from './player-engine';
export { ListenTracker, LISTEN_THRESHOLD_SECONDS } from './listen-tracker';
export { MediaSessionBridge, type MediaSessionLike } from './media-session';
export type { AudioBackend, Sound, SoundEvents } from './audio-backend';

/**
 * Starts the engine. `stop` stops it and frees the audio; `prime` is PlayerEngine.prime (a press
 * on a track's play button, before its click: the track's element starts loading now).
 */
export function startAudioEngine(options: Pick<EngineOptions, 'currentUserId' | 'sourceOf'>): {
  stop: () => void;
  prime: (track: PlayerTrack) => void;
} {
  const engine = new PlayerEngine({
    backend: createElementBackend(),
    currentUserId: options.currentUserId,
    sourceOf: options.sourceOf,
    mediaSession: browserMediaSession(),
  });
  return { stop: engine.start(), prime: (track) => engine.prime(track) };
}
