/**
 * The only Howler import (CONVENTIONS.md habit 2). HTML5 audio: the browser streams the file and
 * starts as soon as enough is buffered, never a full download and decode before the first sound.
 */
import { Howl, Howler } from 'howler';
import type { AudioBackend, Sound, SoundEvents, SoundOptions } from './audio-backend';

const KNOWN_EXTENSIONS = /\.(mp3|mpeg|opus|ogg|oga|wav|aac|caf|m4a|m4b|mp4|weba|webm|flac)$/i;

/** Howler picks a source by extension; URLs without one are declared mp3 and sniffed by the browser. */
export function formatFor(src: string): string[] | undefined {
  const path = src.split(/[?#]/, 1)[0] ?? '';
  return KNOWN_EXTENSIONS.test(path) ? undefined : ['mp3'];
}

class HowlSound implements Sound {
  private readonly howl: Howl;
  /** Howler's id of our one playback, so play after pause resumes it instead of a second one. */
  private id: number | undefined;

  constructor(src: string, options: SoundOptions, events: SoundEvents) {
    this.howl = new Howl({
      src: [src],
      html5: true,
      preload: options.preload,
      format: formatFor(src),
      onload: () => events.onLoad(),
      onloaderror: (_id, error) => events.onLoadError(error),
      onplayerror: (_id, error) => events.onPlayError(error),
      onplay: () => events.onPlay(),
      onpause: () => events.onPause(),
      onend: () => events.onEnd(),
    });
  }

  play(): void {
    const id = this.howl.play(this.id);
    if (typeof id === 'number') this.id = id;
  }

  pause(): void {
    this.howl.pause(this.id);
  }

  position(): number {
    // Without an id: one Howl holds one sound, and a number here could be taken as a seek.
    const value = this.howl.seek();
    return typeof value === 'number' && Number.isFinite(value) ? value : 0;
  }

  seek(seconds: number): void {
    if (this.id === undefined) this.howl.seek(seconds);
    else this.howl.seek(seconds, this.id);
  }

  duration(): number {
    const value = this.howl.duration();
    return Number.isFinite(value) ? value : 0;
  }

  unload(): void {
    this.howl.unload();
  }
}

export function createHowlerBackend(): AudioBackend {
  return {
    createSound: (src, options, events) => new HowlSound(src, options, events),
    setVolume: (volume) => {
      Howler.volume(volume);
    },
  };
}
