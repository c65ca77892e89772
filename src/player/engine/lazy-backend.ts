/**
 * An audio backend whose code loads on first need (docs/player.md, "What Howler costs").
 * Howler is 10 KiB gzip that a page without a track never runs, so it stays off the first paint:
 * `warm()` starts the download at the first pointer or key press (before the click that plays
 * lands), and a sound made before the real backend is there records what it is asked (play,
 * pause, seek, unload) and hands it over when the backend arrives.
 */
import type { AudioBackend } from './audio-backend';
import { DeferredSound } from './deferred-sound';

export interface LazyBackend extends AudioBackend {
  /** Starts loading the real backend (idempotent). */
  warm(): void;
}

export function createLazyBackend(load: () => Promise<AudioBackend>): LazyBackend {
  let ready: Promise<AudioBackend> | null = null;
  let backend: AudioBackend | null = null;
  let volume: number | null = null;

  const warm = (): Promise<AudioBackend> => {
    ready ??= load().then(
      (loaded) => {
        backend = loaded;
        if (volume !== null) loaded.setVolume(volume);
        return loaded;
      },
      (error: unknown) => {
        ready = null; // offline before the chunk was cached: the next sound tries again
        throw error;
      },
    );
    return ready;
  };

  return {
    warm: () => void warm().catch(() => undefined),
    createSound(src, options, events) {
      if (backend) return backend.createSound(src, options, events);
      const make = warm().then((loaded) => () => loaded.createSound(src, options, events));
      return new DeferredSound(make, events);
    },
    setVolume(next) {
      volume = next;
      backend?.setVolume(next);
    },
  };
}
