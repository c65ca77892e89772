/** The audio engine on HTML5 audio elements and the browser's Media Session. */
import { createElementBackend } from './element-backend';
import { browserMediaSession } from './media-session';
import { PlayerEngine, type EngineOptions } from './player-engine';

export { PlayerEngine, TICK_MS, type EngineOptions } from './player-engine';
export { ListenTracker, LISTEN_THRESHOLD_SECONDS } from './listen-tracker';
export { MediaSessionBridge, type MediaSessionLike } from './media-session';
export type { AudioBackend, Sound, SoundEvents } from './audio-backend';

/** Starts the engine; returns a function that stops it and frees the audio. */
export function startAudioEngine(
  options: Pick<EngineOptions, 'currentUserId' | 'sourceOf'>,
): () => void {
  return new PlayerEngine({
    backend: createElementBackend(),
    currentUserId: options.currentUserId,
    sourceOf: options.sourceOf,
    mediaSession: browserMediaSession(),
  }).start();
}
