/** The audio engine with Howler and the browser's Media Session. */
import { createHowlerBackend } from './howler-backend';
import { browserMediaSession } from './media-session';
import { PlayerEngine } from './player-engine';

export { PlayerEngine, TICK_MS, type EngineOptions } from './player-engine';
export { ListenTracker, LISTEN_THRESHOLD_SECONDS } from './listen-tracker';
export { MediaSessionBridge, type MediaSessionLike } from './media-session';
export type { AudioBackend, Sound, SoundEvents } from './audio-backend';

/** Starts the engine on Howler; returns a function that stops it and frees the audio. */
export function startAudioEngine(options: { currentUserId: () => string | null }): () => void {
  return new PlayerEngine({
    backend: createHowlerBackend(),
    currentUserId: options.currentUserId,
    mediaSession: browserMediaSession(),
  }).start();
}
