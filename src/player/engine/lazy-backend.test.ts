import { describe, expect, it, vi } from 'vitest';
import type { SoundEvents } from './audio-backend';
import { FakeBackend } from './fake-backend';
import { createLazyBackend } from './lazy-backend';

function events(): SoundEvents {
  return {
    onLoad: vi.fn(),
    onLoadError: vi.fn(),
    onPlayError: vi.fn(),
    onPlay: vi.fn(),
    onPause: vi.fn(),
    onEnd: vi.fn(),
  };
}

/** A load the test resolves or rejects by hand. */
function deferredLoad() {
  let resolve!: (backend: FakeBackend) => void;
  let reject!: (error: unknown) => void;
  const load = vi.fn(
    () =>
      new Promise<FakeBackend>((res, rej) => {
        resolve = res;
        reject = rej;
      }),
  );
  return { load, resolve: (b: FakeBackend) => resolve(b), reject: (e: unknown) => reject(e) };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('createLazyBackend', () => {
  it('loads nothing until a sound is made or warm() is called', async () => {
    const { load } = deferredLoad();
    const lazy = createLazyBackend(load);
    lazy.setVolume(0.5);
    await flush();
    expect(load).not.toHaveBeenCalled();
    lazy.warm();
    lazy.warm();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('hands a seek and a play made before the load to the real sound, in order', async () => {
    const deferred = deferredLoad();
    const lazy = createLazyBackend(deferred.load);
    lazy.setVolume(0.3);
    const ev = events();
    const sound = lazy.createSound('/a.mp3', { preload: true }, ev);
    sound.seek(42);
    sound.play();
    expect(sound.position()).toBe(42);
    expect(sound.duration()).toBe(0);

    const real = new FakeBackend();
    deferred.resolve(real);
    await flush();
    const made = real.sound('a');
    expect(made.calls).toEqual(['seek:42', 'play']);
    expect(made.events).toBe(ev);
    expect(real.volume).toBe(0.3);

    made.load(180);
    expect(sound.duration()).toBe(180);
    sound.pause();
    expect(made.calls.at(-1)).toBe('pause');
  });

  it('a pause before the load cancels the play; an unload before it makes no sound', async () => {
    const deferred = deferredLoad();
    const lazy = createLazyBackend(deferred.load);
    const paused = lazy.createSound('/a.mp3', { preload: true }, events());
    paused.play();
    paused.pause();
    const dropped = lazy.createSound('/b.mp3', { preload: true }, events());
    dropped.unload();

    const real = new FakeBackend();
    deferred.resolve(real);
    await flush();
    expect(real.sound('a').calls).toEqual([]);
    expect(real.sounds.map((s) => s.src)).toEqual(['/a.mp3']);
  });

  it('once loaded, sounds are the real ones and the volume goes straight through', async () => {
    const real = new FakeBackend();
    const lazy = createLazyBackend(() => Promise.resolve(real));
    lazy.warm();
    await flush();
    lazy.createSound('/a.mp3', { preload: true }, events()).play();
    expect(real.sound('a').calls).toEqual(['play']);
    lazy.setVolume(0.8);
    expect(real.volume).toBe(0.8);
  });

  it('a failed load is the sound’s load error, and the next sound tries again', async () => {
    const first = deferredLoad();
    const real = new FakeBackend();
    const load = vi
      .fn<() => Promise<FakeBackend>>()
      .mockImplementationOnce(first.load)
      .mockResolvedValue(real);
    const lazy = createLazyBackend(load);
    const ev = events();
    lazy.createSound('/a.mp3', { preload: true }, ev).play();
    first.reject(new Error('chunk failed'));
    await flush();
    expect(ev.onLoadError).toHaveBeenCalledWith(new Error('chunk failed'));

    lazy.createSound('/b.mp3', { preload: true }, events()).play();
    await flush();
    expect(load).toHaveBeenCalledTimes(2);
    expect(real.sound('b').calls).toEqual(['play']);
  });
});
