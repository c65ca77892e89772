/**
 * A sound that exists before its audio can: its URL is still being signed (the engine's
 * `sourceOf`). It records what it is asked (play,
 * pause, seek, unload) and hands it to the real sound once `make` resolves; a rejected `make`
 * is the sound's load error.
 */
import type { Sound, SoundEvents } from './audio-backend';

export class DeferredSound implements Sound {
  private real: Sound | null = null;
  private wantsPlay = false;
  private startAt: number | null = null;
  private unloaded = false;

  constructor(make: Promise<() => Sound>, events: Pick<SoundEvents, 'onLoadError'>) {
    make.then(
      (create) => {
        if (this.unloaded) return;
        const real = create();
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
