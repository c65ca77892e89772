/**
 * The audio backend, and the only Howler import (CONVENTIONS.md habit 2): one `Howl` per sound,
 * in HTML5 mode (`html5: true`), so the browser streams the file over Range requests (a signed
 * URL, or a downloaded track's copy served by the service worker) and never downloads and
 * decodes it whole first. Howler takes each sound's `<audio>` element from its own pool, unlocked
 * at the first touch, click or key press (`Howler.html5PoolSize`), so a track that starts by
 * itself (the next one at a track's end, the lock screen's Next) may play on iOS.
 *
 * Howler's public API only (docs/player.md, "What Howler costs"). What this file adds to keep
 * its costs off the click: the AudioContext Howler makes with its first Howl is made when the
 * page is idle (`warmUp`), not in a click; a replaced sound is paused at once and unloaded (which
 * loads Howler's silent data URI into its element) only once the new sound has started and the
 * page is idle.
 */
import { Howl, Howler } from 'howler';
import { whenIdle } from '@/lib/when-idle';
import { afterSoundsStart } from '../ui-hold';
import type { AudioBackend, Sound, SoundEvents, SoundOptions } from './audio-backend';

/**
 * Howler's pool of unlocked elements. A sound holds one from its Howl's creation to its unload:
 * the current track, the preloaded next one, a track being pressed (primed), and the replaced
 * ones waiting for the page to be idle to be unloaded (one or two). Howler's default is 10.
 */
export const HTML5_POOL_SIZE = 6;

const KNOWN_EXTENSIONS = /\.(mp3|mpeg|opus|ogg|oga|wav|aac|caf|m4a|m4b|mp4|weba|webm|flac)$/i;

/**
 * Howler picks a source by its extension; a URL without one (a downloaded track's
 * `/offline-audio/...`) is declared mp3, and the browser sniffs what it really is.
 */
export function formatFor(src: string): string[] | undefined {
  const path = src.split(/[?#]/, 1)[0] ?? '';
  return KNOWN_EXTENSIONS.test(path) ? undefined : ['mp3'];
}

/** When a replaced sound is unloaded (after the new one has started and the page is idle). */
export type Scheduler = (task: () => void) => void;

const laterWhenIdle: Scheduler = (task) => afterSoundsStart(() => void whenIdle(task, 2000));

/** One live sound as the debug hook shows it (tests and the benches read it). */
export interface PlayerDebugSound {
  /** Stable per sound, so a test can tell one sound from another. */
  key: number;
  src: string;
  /** The sound's Howl: read it through Howler's public API (`playing()`, `seek()`, `state()`). */
  howl: Howl;
}

/** `window.__soundloftPlayer`: which engine plays, and its live sounds. */
export interface PlayerDebugHook {
  engine: 'howler';
  sounds(): PlayerDebugSound[];
}

declare global {
  interface Window {
    __soundloftPlayer?: PlayerDebugHook;
  }
}

let nextKey = 1;

export class HowlSound implements Sound {
  readonly howl: Howl;
  readonly src: string;
  readonly key = nextKey++;
  /** Howler's id of our one playback, so a play after a pause resumes it. */
  private id: number | undefined;
  private unloaded = false;
  private playErrorReported = false;
  private readonly live: Set<HowlSound>;
  private readonly schedule: Scheduler;

  constructor(
    src: string,
    options: SoundOptions,
    events: SoundEvents,
    live: Set<HowlSound>,
    schedule: Scheduler,
  ) {
    this.src = src;
    this.live = live;
    this.schedule = schedule;
    // Events of a sound already unloaded (waiting for its Howl's unload) are not the engine's.
    const on =
      <A extends unknown[]>(handler: (...args: A) => void) =>
      (...args: A) => {
        if (!this.unloaded) handler(...args);
      };
    this.howl = new Howl({
      src: [src],
      html5: true,
      preload: options.preload,
      format: formatFor(src),
      onload: on(() => events.onLoad()),
      onloaderror: on((_id: number, error: unknown) => events.onLoadError(loadError(error))),
      // Howler reports a refused play() twice (the element still paused after it, then the
      // promise's rejection): the engine hears it once per play().
      onplayerror: on((_id: number, error: unknown) => {
        if (this.playErrorReported) return;
        this.playErrorReported = true;
        events.onPlayError(error);
      }),
      onplay: on(() => events.onPlay()),
      onpause: on(() => events.onPause()),
      onend: on(() => events.onEnd()),
    });
    live.add(this);
  }

  play(): void {
    if (this.unloaded) return;
    this.playErrorReported = false;
    const id = this.howl.play(this.id);
    if (typeof id === 'number') this.id = id;
  }

  pause(): void {
    if (!this.unloaded) this.howl.pause(this.id);
  }

  position(): number {
    // Without an id: one Howl holds one sound, and a number here would be taken as a seek.
    const value = this.howl.seek();
    return typeof value === 'number' && Number.isFinite(value) ? value : 0;
  }

  seek(seconds: number): void {
    if (this.unloaded) return;
    if (this.id === undefined) this.howl.seek(seconds);
    else this.howl.seek(seconds, this.id);
  }

  duration(): number {
    const value = this.howl.duration();
    return Number.isFinite(value) ? value : 0;
  }

  /**
   * Silent at once (paused), unloaded later: Howler's unload loads a silent data URI into the
   * element to stop its download, a third load that competed with the new track's start.
   */
  unload(): void {
    if (this.unloaded) return;
    this.unloaded = true;
    this.live.delete(this);
    if (this.howl.playing()) this.howl.pause();
    this.schedule(() => this.howl.unload());
  }
}

/** Howler reports an element's load error as its MediaError code. */
function loadError(error: unknown): Error {
  return error instanceof Error ? error : new Error(`MediaError ${String(error)}`);
}

/** Howler's own silent sound (never loaded here: the warm-up's Howl does not preload). */
const SILENCE =
  'data:audio/wav;base64,UklGRigAAABXQVZFZm10IBIAAAABAAEARKwAAIhYAQACABAAAABkYXRhAgAAAAEA';

let warmed = false;
/** The master volume asked before the warm-up (Howler's volume makes the AudioContext). */
let masterVolume: number | null = null;

/**
 * Howler's first Howl makes its AudioContext (the first one took 2.2 s in headless Chromium on
 * this machine) and registers Howler's unlock on the next touch, click or key press (the pool).
 * A Howl that loads nothing, unloaded at once, does both now: called when the page is idle after
 * the player starts, and before the first sound at the latest, so neither waits in a click, and
 * the pool is unlocked by the first gesture rather than by the first gesture after a sound.
 */
export function warmUp(): void {
  if (warmed) return;
  warmed = true;
  Howler.html5PoolSize = HTML5_POOL_SIZE;
  new Howl({ src: [SILENCE], html5: true, preload: false }).unload();
  if (masterVolume !== null) Howler.volume(masterVolume);
}

export interface HowlerBackendOptions {
  /** When replaced sounds are unloaded (the page's first idle moment after a start in the app). */
  schedule?: Scheduler;
  /** Installs `window.__soundloftPlayer` (the app does; unit tests may leave it out). */
  debugHook?: boolean;
}

export function createHowlerBackend(options: HowlerBackendOptions = {}): AudioBackend & {
  sounds(): PlayerDebugSound[];
} {
  const live = new Set<HowlSound>();
  const schedule = options.schedule ?? laterWhenIdle;
  const backend = {
    createSound: (src: string, soundOptions: SoundOptions, events: SoundEvents) => {
      warmUp();
      return new HowlSound(src, soundOptions, events, live, schedule);
    },
    setVolume(next: number) {
      if (next === masterVolume) return;
      masterVolume = next;
      if (warmed) Howler.volume(next);
    },
    sounds: () => [...live].map(({ key, src, howl }) => ({ key, src, howl })),
  };
  if (options.debugHook && typeof window !== 'undefined')
    window.__soundloftPlayer = { engine: 'howler', sounds: backend.sounds };
  return backend;
}
