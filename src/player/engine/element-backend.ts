/**
 * The audio backend: one HTML5 `<audio>` element per sound, taken empty from the pool of
 * elements unlocked in a user gesture (element-pool.ts; docs/player.md, "Click to audio" and
 * "Unlocked elements"). The browser streams the file over Range requests (a signed URL, or a
 * downloaded track's copy served by the service worker) and starts as soon as it has enough:
 * `play()` is called on the element in the click's own task, never after waiting for
 * `canplaythrough`, and nothing seeks the element to where it already is. A replaced element is
 * paused and taken out of the document at once, and emptied only when the page is idle (then it
 * goes back to the pool), so its teardown never competes with the new track's start.
 *
 * The live elements are in one hidden container in the document (`#player-audio`), where tests
 * and the benches find them.
 */
import type { AudioBackend, Sound, SoundEvents, SoundOptions } from './audio-backend';
import { sharedElementPool, type ElementPool } from './element-pool';

export const AUDIO_CONTAINER_ID = 'player-audio';

function container(): HTMLElement {
  let box = document.getElementById(AUDIO_CONTAINER_ID);
  if (!box) {
    box = document.createElement('div');
    box.id = AUDIO_CONTAINER_ID;
    box.hidden = true;
    document.body.append(box);
  }
  return box;
}

/** An error with the media element's code and message, so logs and the error text say which. */
function mediaError(element: HTMLAudioElement): Error {
  const error = element.error;
  return new Error(
    error ? `MediaError ${error.code}${error.message ? `: ${error.message}` : ''}` : 'MediaError',
  );
}

/** The backend's bookkeeping of its elements: the master volume, the live ones, the pool. */
interface Elements {
  readonly volume: number;
  take(): HTMLAudioElement;
  release(element: HTMLAudioElement): void;
}

class ElementSound implements Sound {
  private readonly element: HTMLAudioElement;
  private readonly events: SoundEvents;
  private readonly listeners = new AbortController();
  private readonly elements: Elements;
  /** Whether play() was asked and not since paused: a late answer of play() is only reported then. */
  private wantsPlay = false;
  private loaded = false;
  private unloaded = false;

  constructor(src: string, options: SoundOptions, events: SoundEvents, elements: Elements) {
    this.events = events;
    this.elements = elements;
    const element = elements.take();
    this.element = element;
    element.preload = options.preload === true ? 'auto' : options.preload || 'none';
    element.volume = elements.volume;
    const signal = this.listeners.signal;
    // Ready to play through: the length is known and the engine may preload the next track.
    element.addEventListener(
      'canplaythrough',
      () => {
        if (this.loaded) return;
        this.loaded = true;
        events.onLoad();
      },
      { signal },
    );
    element.addEventListener('error', () => events.onLoadError(mediaError(element)), { signal });
    element.addEventListener('ended', () => events.onEnd(), { signal });
    element.src = src;
    container().append(element);
  }

  play(): void {
    if (this.unloaded) return;
    this.wantsPlay = true;
    this.element.play().then(
      () => {
        if (!this.unloaded && this.wantsPlay) this.events.onPlay();
      },
      (error: unknown) => {
        // Paused or unloaded meanwhile (AbortError), or the file failed ('error' reports it).
        if (this.unloaded || !this.wantsPlay || this.element.error) return;
        this.wantsPlay = false;
        this.events.onPlayError(error);
      },
    );
  }

  pause(): void {
    this.wantsPlay = false;
    if (!this.unloaded) this.element.pause();
    this.events.onPause();
  }

  position(): number {
    const value = this.element.currentTime;
    return Number.isFinite(value) ? value : 0;
  }

  seek(seconds: number): void {
    // Before the metadata this sets the element's default playback start position (HTML spec).
    if (!this.unloaded) this.element.currentTime = seconds;
  }

  duration(): number {
    const value = this.element.duration;
    return Number.isFinite(value) ? value : 0;
  }

  unload(): void {
    if (this.unloaded) return;
    this.unloaded = true;
    this.wantsPlay = false;
    this.listeners.abort();
    this.elements.release(this.element);
  }
}

export function createElementBackend(pool: ElementPool = sharedElementPool()): AudioBackend {
  const live = new Set<HTMLAudioElement>();
  const elements = {
    volume: 1,
    take: () => {
      const element = pool.take();
      live.add(element);
      return element;
    },
    release: (element: HTMLAudioElement) => {
      live.delete(element);
      pool.release(element);
    },
  };

  return {
    createSound: (src, options, events) => new ElementSound(src, options, events, elements),
    setVolume(next) {
      if (next === elements.volume) return;
      elements.volume = next;
      for (const element of live) element.volume = next;
    },
  };
}
