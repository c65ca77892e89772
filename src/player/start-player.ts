/**
 * The one call the app makes: restore the saved player, keep saving it, and start the audio
 * engine. Returns a function that stops all of it (tests, hot reload).
 */
import { startAudioEngine } from './engine';
import { startPersistence } from './persistence';
import type { PlayerTrack } from './types';

export interface StartPlayerOptions {
  /** The signed-in user's profile id, or null (their own uploads are never counted as plays). */
  currentUserId: () => string | null;
  /** Where a track's audio comes from (signed URLs of the listener's rendition). */
  sourceOf?: (track: PlayerTrack) => Promise<string>;
}

let running: (() => void) | null = null;

export function startPlayer(options: StartPlayerOptions): () => void {
  running?.();
  const stopPersistence = startPersistence();
  const stopEngine = startAudioEngine(options);
  const stop = () => {
    stopEngine();
    stopPersistence();
    if (running === stop) running = null;
  };
  running = stop;
  return stop;
}
