/** The audio engine with Howler (loaded on demand) and the browser's Media Session. */
import { whenIdle } from '@/lib/when-idle';
import { createLazyBackend } from './lazy-backend';
import { browserMediaSession } from './media-session';
import { PlayerEngine, type EngineOptions } from './player-engine';

export { PlayerEngine, TICK_MS, type EngineOptions } from './player-engine';
export { ListenTracker, LISTEN_THRESHOLD_SECONDS } from './listen-tracker';
export { MediaSessionBridge, type MediaSessionLike } from './media-session';
export type { AudioBackend, Sound, SoundEvents } from './audio-backend';

/** The first press of any pointer or key: the click that plays a track comes right after it. */
const INTENT_EVENTS = ['pointerdown', 'keydown', 'touchstart'] as const;

/** Starts the engine on Howler; returns a function that stops it and frees the audio. */
export function startAudioEngine(
  options: Pick<EngineOptions, 'currentUserId' | 'sourceOf'>,
): () => void {
  const backend = createLazyBackend(() =>
    import('./howler-backend').then((m) => m.createHowlerBackend()),
  );
  const warm = () => {
    for (const type of INTENT_EVENTS) window.removeEventListener(type, warm, true);
    backend.warm();
  };
  for (const type of INTENT_EVENTS) {
    window.addEventListener(type, warm, { capture: true, passive: true });
  }
  // Or once the page is idle: Howler sets up its AudioContext when it loads, which takes
  // seconds in some browsers (2.2 s for the first one in headless Chromium here), and must not
  // happen between the click and the audio (docs/player.md, "Click to audio").
  const cancelIdle = whenIdle(warm, 3000);
  const stop = new PlayerEngine({
    backend,
    currentUserId: options.currentUserId,
    sourceOf: options.sourceOf,
    mediaSession: browserMediaSession(),
  }).start();
  return () => {
    cancelIdle();
    for (const type of INTENT_EVENTS) window.removeEventListener(type, warm, true);
    stop();
  };
}
