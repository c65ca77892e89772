/**
 * A small pool of `<audio>` elements unlocked during a user gesture (docs/player.md, "Unlocked
 * elements"). iOS Safari lets an element play without a gesture only once that element itself
 * has been loaded or played in one: WebKit lifts its restrictions per element
 * (`HTMLMediaElement::removeBehaviorRestrictionsAfterFirstUserGesture`, called from `load()`
 * and from setting `src` while `processingUserGestureForMedia()`), and for good. A track that
 * starts by itself (the next one at a track's end, the lock screen's "next", the preloaded next
 * track, a resume after an interruption) must therefore play in an element that was unlocked
 * earlier, as Howler's `_unlockAudio` pool did. At the first pointer press, touch end, click or
 * key press, and at every later one while the pool is short, the pool is topped up: each new
 * element gets `load()` with no source (no request, no media pipeline: the load algorithm ends
 * at once with NETWORK_EMPTY), which is the unlock. Every sound takes its element from the pool;
 * a released element is emptied when the page is idle and goes back, up to POOL_SIZE idle ones.
 * An element made because the pool was empty (not unlocked) is dropped when released.
 */
import { whenIdle } from '@/lib/when-idle';
import { afterSoundsStart } from '../ui-hold';

/**
 * Idle unlocked elements kept: the current track and the preloaded next one take two, the two
 * they replace are emptied while the next ones play.
 */
export const POOL_SIZE = 4;

/** The events that are a user gesture for media in WebKit and Chromium (Howler listened to these). */
export const GESTURE_EVENTS = ['pointerdown', 'pointerup', 'touchend', 'click', 'keydown'] as const;

export interface ElementPoolOptions {
  size?: number;
  create?: () => HTMLAudioElement;
  /** When released elements are emptied (when the page is idle in the app). */
  schedule?: (task: () => void) => void;
}

export class ElementPool {
  private readonly size: number;
  private readonly create: () => HTMLAudioElement;
  private readonly schedule: (task: () => void) => void;
  /** Unlocked, empty and ready, last in first out. */
  private readonly idle: HTMLAudioElement[] = [];
  /** Released and waiting to be emptied. */
  private readonly released: HTMLAudioElement[] = [];
  private readonly unlocked = new WeakSet<HTMLAudioElement>();
  private readonly inUse = new Set<HTMLAudioElement>();
  private emptyScheduled = false;

  constructor(options: ElementPoolOptions = {}) {
    this.size = options.size ?? POOL_SIZE;
    this.create = options.create ?? (() => new Audio());
    this.schedule = options.schedule ?? ((task) => void whenIdle(task, 2000));
  }

  /**
   * Called in a user gesture: tops the pool up to its size (counting the unlocked elements on
   * their way back), each new element unlocked by `load()`. Nothing to do when it is full.
   */
  unlock(): void {
    const coming = this.released.filter((element) => this.unlocked.has(element)).length;
    while (this.idle.length + coming < this.size) {
      const element = this.create();
      element.load();
      this.unlocked.add(element);
      this.idle.push(element);
    }
  }

  /** An element for a sound: an unlocked one from the pool, or a new one when it is empty. */
  take(): HTMLAudioElement {
    const element = this.idle.pop() ?? this.create();
    this.inUse.add(element);
    return element;
  }

  /** Whether the element was unlocked in a gesture (so it may play without one on iOS). */
  isUnlocked(element: HTMLAudioElement): boolean {
    return this.unlocked.has(element);
  }

  /**
   * A sound is done with its element: paused and out of the document now, emptied (source
   * removed, media pipeline freed) when the page is idle, then back in the pool if it is
   * unlocked and the pool has room; otherwise dropped.
   */
  release(element: HTMLAudioElement): void {
    if (!this.inUse.delete(element)) return;
    element.pause();
    element.remove();
    this.released.push(element);
    if (this.emptyScheduled) return;
    this.emptyScheduled = true;
    this.schedule(() => this.empty());
  }

  /** Counts, for tests and the bench: idle in the pool, in use, waiting to be emptied. */
  counts(): { idle: number; inUse: number; released: number } {
    return { idle: this.idle.length, inUse: this.inUse.size, released: this.released.length };
  }

  private empty(): void {
    this.emptyScheduled = false;
    for (const element of this.released.splice(0)) {
      element.removeAttribute('src');
      element.load();
      if (this.unlocked.has(element) && this.idle.length < this.size) this.idle.push(element);
    }
  }
}

let shared: ElementPool | null = null;

/**
 * The page's pool, made once, with its gesture listeners (capture phase, passive, on the
 * document, kept for the page's life: a full pool makes them a comparison).
 */
export function sharedElementPool(): ElementPool {
  if (shared) return shared;
  // A released element is emptied when the page is idle and no sound is starting: its
  // teardown (3-4 ms of the main thread) once ran between the new element's load and its demuxer.
  const pool = new ElementPool({
    schedule: (task) => afterSoundsStart(() => void whenIdle(task, 2000)),
  });
  shared = pool;
  const unlock = () => pool.unlock();
  for (const type of GESTURE_EVENTS)
    document.addEventListener(type, unlock, { capture: true, passive: true });
  return pool;
}
