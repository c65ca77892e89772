/**
 * The engine's view of an audio library: small enough to fake in jsdom (which has no audio).
 * howler-backend.ts is the real one (Howler).
 */
export interface SoundEvents {
  onLoad(): void;
  onLoadError(error: unknown): void;
  onPlayError(error: unknown): void;
  onPlay(): void;
  onPause(): void;
  onEnd(): void;
}

export interface Sound {
  play(): void;
  pause(): void;
  /** Current position in seconds (0 when unknown). */
  position(): number;
  seek(seconds: number): void;
  /** Length in seconds (0 until loaded). */
  duration(): number;
  /** Frees the audio element and its buffer. */
  unload(): void;
}

export interface SoundOptions {
  /** Start buffering now (the current track and the preloaded next one). */
  preload: boolean | 'metadata';
}

export interface AudioBackend {
  createSound(src: string, options: SoundOptions, events: SoundEvents): Sound;
  /** Master volume 0..1 for every sound. */
  setVolume(volume: number): void;
}
