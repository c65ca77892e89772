import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElementBackend } from './element-backend';
import { ElementPool, GESTURE_EVENTS, POOL_SIZE, sharedElementPool } from './element-pool';

/** jsdom has no media: load, pause and play are recorded per element (the rest is the DOM). */
const calls = new Map<HTMLMediaElement, string[]>();
const record = (element: HTMLMediaElement, call: string) =>
  calls.set(element, [...(calls.get(element) ?? []), call]);

beforeEach(() => {
  calls.clear();
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    record(this, 'load');
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    record(this, 'pause');
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    record(this, 'play');
    return Promise.resolve();
  });
});
afterEach(() => vi.restoreAllMocks());

/** A pool whose idle-time emptying runs when the test says. */
function manualPool(size = POOL_SIZE) {
  const tasks: (() => void)[] = [];
  const created: HTMLAudioElement[] = [];
  const pool = new ElementPool({
    size,
    create: () => {
      const element = document.createElement('audio');
      created.push(element);
      return element;
    },
    schedule: (task) => void tasks.push(task),
  });
  const runIdle = () => tasks.splice(0).forEach((task) => task());
  return { pool, created, runIdle };
}

describe('ElementPool', () => {
  it('a gesture fills the pool with elements unlocked by load(), with no source', () => {
    const { pool, created } = manualPool(3);
    pool.unlock();
    expect(created).toHaveLength(3);
    for (const element of created) {
      expect(calls.get(element)).toEqual(['load']);
      expect(element.hasAttribute('src')).toBe(false);
      expect(pool.isUnlocked(element)).toBe(true);
    }
    pool.unlock();
    expect(created).toHaveLength(3);
    expect(pool.counts()).toEqual({ idle: 3, inUse: 0, released: 0 });
  });

  it('sounds take unlocked elements; released ones are emptied when idle and come back', () => {
    const { pool, created, runIdle } = manualPool(2);
    pool.unlock();
    const a = pool.take();
    const b = pool.take();
    expect(created).toEqual(expect.arrayContaining([a, b]));
    a.src = 'https://cdn.test/a.mp3';
    document.body.append(a);
    pool.release(a);
    expect(calls.get(a)).toEqual(['load', 'pause']);
    expect(a.isConnected).toBe(false);
    // Not emptied in the releasing task: that waits for the page to be idle.
    expect(a.hasAttribute('src')).toBe(true);
    expect(pool.counts()).toEqual({ idle: 0, inUse: 1, released: 1 });
    // The element on its way back counts: a gesture meanwhile makes one element, not two.
    pool.unlock();
    expect(created).toHaveLength(3);
    runIdle();
    expect(a.hasAttribute('src')).toBe(false);
    expect(calls.get(a)).toEqual(['load', 'pause', 'load']);
    expect(pool.counts()).toEqual({ idle: 2, inUse: 1, released: 0 });
    // The next take reuses an unlocked element, the last one back first.
    expect(pool.take()).toBe(a);
  });

  it('never keeps more than its size: 50 tracks through a pool of 4 leave 4 idle elements', () => {
    const { pool, created, runIdle } = manualPool(4);
    pool.unlock();
    let playing = pool.take();
    for (let track = 1; track < 50; track++) {
      const next = pool.take();
      pool.release(playing);
      playing = next;
      // A gesture between some tracks (a click on Next), none between others (track ends).
      if (track % 3 === 0) pool.unlock();
      if (track % 2 === 0) runIdle();
    }
    pool.release(playing);
    runIdle();
    expect(pool.counts()).toEqual({ idle: 4, inUse: 0, released: 0 });
    // Every track played in an unlocked element: none was made outside a gesture.
    expect(created.every((element) => pool.isUnlocked(element))).toBe(true);
    expect(created.length).toBeLessThanOrEqual(8);
  });

  it('an element made because the pool was empty is dropped when released, not pooled', () => {
    const { pool, created, runIdle } = manualPool(2);
    const fresh = pool.take();
    expect(created).toEqual([fresh]);
    expect(pool.isUnlocked(fresh)).toBe(false);
    pool.release(fresh);
    runIdle();
    expect(pool.counts()).toEqual({ idle: 0, inUse: 0, released: 0 });
    // Releasing twice (or an element it never gave) changes nothing.
    pool.release(fresh);
    pool.release(document.createElement('audio'));
    expect(pool.counts()).toEqual({ idle: 0, inUse: 0, released: 0 });
  });

  it('the page pool is topped up by each kind of gesture Howler listened to', async () => {
    const pool = sharedElementPool();
    expect(sharedElementPool()).toBe(pool);
    expect(GESTURE_EVENTS).toEqual(['pointerdown', 'pointerup', 'touchend', 'click', 'keydown']);
    for (const type of GESTURE_EVENTS) {
      const taken = [pool.take(), pool.take()];
      document.body.dispatchEvent(new Event(type, { bubbles: true }));
      expect([type, pool.counts()]).toEqual([type, { idle: POOL_SIZE, inUse: 2, released: 0 }]);
      taken.forEach((element) => pool.release(element));
      // Emptied when idle; the pool is full, so they are dropped.
      await vi.waitFor(() => expect(pool.counts()).toEqual({ idle: 4, inUse: 0, released: 0 }));
    }
  });
});

describe('element backend on the pool', () => {
  it('plays each sound in a pooled element under #player-audio and returns it on unload', () => {
    const { pool, created } = manualPool(2);
    pool.unlock();
    const backend = createElementBackend(pool);
    const events = {
      onLoad: vi.fn(),
      onLoadError: vi.fn(),
      onPlayError: vi.fn(),
      onPlay: vi.fn(),
      onPause: vi.fn(),
      onEnd: vi.fn(),
    };
    backend.setVolume(0.5);
    const sound = backend.createSound('https://cdn.test/a.mp3', { preload: true }, events);
    const element = document.querySelector<HTMLAudioElement>('#player-audio audio');
    expect(element && created.includes(element)).toBe(true);
    expect(element?.src).toBe('https://cdn.test/a.mp3');
    expect(element?.preload).toBe('auto');
    expect(element?.volume).toBe(0.5);
    sound.play();
    expect(calls.get(element!)).toEqual(['load', 'play']);
    sound.unload();
    expect(element?.isConnected).toBe(false);
    expect(pool.counts()).toEqual({ idle: 1, inUse: 0, released: 1 });
    // Its listeners are gone with it: a late 'ended' of the old element is not this sound's.
    element?.dispatchEvent(new Event('ended'));
    expect(events.onEnd).not.toHaveBeenCalled();
  });
});
