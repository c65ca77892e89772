/** The audio engine on Howler (HTML5 audio, loaded on demand) and the browser's Media Session. */
import { whenIdle } from '@/lib/when-idle';
import { createLazyBackend } from './lazy-backend';
import { browserMediaSession } from './media-session';
import { PlayerEngine, type EngineOptions } from './player-engine';
import type { PlayerTrack } from '../types';

export { PlayerEngine, TICK_MS, type EngineOptions } from './player-engine';
export { ListenTracker, LISTEN_THRESHOLD_SECONDS } from './listen-tracker';
export { MediaSessionBridge, type MediaSessionLike } from './media-session';
export type { AudioBackend, Sound, SoundEvents } from './audio-backend';

/** The first press of any pointer or key: the click that plays a track comes right after it. */
const INTENT_EVENTS = ['pointerdown', 'keydown', 'touchstart'] as const;
/** At the latest this long after the player starts, Howler loads and makes its AudioContext. */
const WARM_UP_MS = 3000;

/**
 * Starts the engine. `stop` stops it and frees the audio; `prime` is PlayerEngine.prime (a press
 * on a track's play button, before its click: the track's Howl starts loading now) and
 * `primeReleased` its end (PlayerEngine.primeReleased).
 */
export function startAudioEngine(options: Pick<EngineOptions, 'currentUserId' | 'sourceOf'>): {
  stop: () => void;
  prime: (track: PlayerTrack) => void;
  primeReleased: () => void;
} {
  // Howler (10 KiB gzip) loads when the page is idle or at the first press, whichever is first,
  // and makes its AudioContext then (warmUp): never in the click that plays (docs/player.md).
  const backend = createLazyBackend(() =>
    import('./howler-backend').then((m) => {
      m.warmUp();
      return m.createHowlerBackend({ debugHook: true });
    }),
  );
  const warm = () => {
    for (const type of INTENT_EVENTS) window.removeEventListener(type, warm, true);
    backend.warm();
  };
  for (const type of INTENT_EVENTS)
    window.addEventListener(type, warm, { capture: true, passive: true });
  const cancelIdle = whenIdle(warm, WARM_UP_MS);
  const engine = new PlayerEngine({
    backend,
    currentUserId: options.currentUserId,
    sourceOf: options.sourceOf,
    mediaSession: browserMediaSession(),
  });
  const stop = engine.start();
  return {
    stop: () => {
      cancelIdle();
      for (const type of INTENT_EVENTS) window.removeEventListener(type, warm, true);
      stop();
    },
    prime: (track) => engine.prime(track),
    primeReleased: () => engine.primeReleased(),
  };
}
