/**
 * An audio backend whose code loads on first need (docs/player.md, "Howler loads on demand").
 * Howler is 10 KiB gzip that a page without a track never runs, so it stays off the first paint:
 * `warm()` starts the download at the first pointer or key press (before the click that plays
 * lands), and a sound made before the real backend is there records what it is asked (play,
 * pause, seek, unload) and hands it over when the backend arrives.
 */
import type { AudioBackend, Sound, SoundEvents, SoundOptions } from './audio-backend';

export interface LazyBackend extends AudioBackend {
  /** Starts loading the real backend (idempotent). */
  warm(): void;
}

class PendingSound implements Sound {
  private real: Sound | null = null;
  private wantsPlay = false;
  private startAt: number | null = null;
  private unloaded = false;

  constructor(
    ready: Promise<AudioBackend>,
    src: string,
    options: SoundOptions,
    events: SoundEvents,
  ) {
    ready.then(
      (backend) => {
        if (this.unloaded) return;
        const real = backend.createSound(src, options, events);
        this.real = real;
        if (this.startAt !== null) real.seek(this.startAt);
        if (this.wantsPlay) real.play();
      },
      (error: unknown) => {
        if (!this.unloaded) events.onLoadError(error);
      },
    );
  }

  play(): void {
    if (this.real) this.real.play();
    else this.wantsPlay = true;
  }

  pause(): void {
    if (this.real) this.real.pause();
    else this.wantsPlay = false;
  }

  position(): number {
    return this.real ? this.real.position() : (this.startAt ?? 0);
  }

  seek(seconds: number): void {
    if (this.real) this.real.seek(seconds);
    else this.startAt = seconds;
  }

  duration(): number {
    return this.real ? this.real.duration() : 0;
  }

  unload(): void {
    this.unloaded = true;
    this.real?.unload();
  }
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
      return new PendingSound(warm(), src, options, events);
    },
    setVolume(next) {
      volume = next;
      backend?.setVolume(next);
    },
  };
}
