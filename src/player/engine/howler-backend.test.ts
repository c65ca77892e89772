/**
 * The engine on the real Howler (not a mock of it). happy-dom has media elements but plays
 * nothing and has no Web Audio, so the browser's part is played here: which types it can play
 * (before Howler loads, which reads them once), an AudioContext that does nothing (with one,
 * Howler plays through Web Audio unless a Howl asks for HTML5, and unlocks its pool), the
 * elements made, and per element its load, play and pause calls and when it can play through.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from '../actions';
import { playerState } from '../store';
import { createTrack } from '../test-tracks';
import { MediaSessionBridge } from './media-session';
import { PlayerEngine } from './player-engine';

const made = vi.hoisted(() => {
  HTMLMediaElement.prototype.canPlayType = (type: string) =>
    type.startsWith('audio/mpeg') ? 'probably' : '';
  const node = () => ({ connect() {}, disconnect() {}, gain: { setValueAtTime() {} } });
  class SilentAudioContext {
    state = 'suspended';
    sampleRate = 44100;
    currentTime = 0;
    destination = {};
    createGain = node;
    createBuffer = () => ({});
    createBufferSource = () => ({ ...node(), start() {} });
    resume = () => Promise.resolve();
    suspend = () => Promise.resolve();
    close = () => Promise.resolve();
  }
  Object.assign(globalThis, { AudioContext: SilentAudioContext });
  /** Every `new Audio()`, in order. */
  const made: HTMLAudioElement[] = [];
  const BrowserAudio = globalThis.Audio;
  globalThis.Audio = class extends BrowserAudio {
    constructor(src?: string) {
      super(src);
      made.push(this);
    }
  } as typeof Audio;
  return made;
});

const { Howl, Howler } = await import('howler');
const { createHowlerBackend, HTML5_POOL_SIZE, warmUp } = await import('./howler-backend');

const a = createTrack({ id: 'a', title: 'Alpha', duration: 100 });
const b = createTrack({ id: 'b', title: 'Beta', duration: 100 });
const SILENT_PREFIX = 'data:audio/wav;base64,';

/** Every element a sound loaded, and what was asked of it. */
let elements: HTMLAudioElement[];
const calls = new Map<HTMLMediaElement, string[]>();
const record = (element: HTMLMediaElement, call: string) =>
  calls.set(element, [...(calls.get(element) ?? []), call]);
const elementOf = (track: { audioUrl: string }) => elements.find((e) => e.src === track.audioUrl);

/** The browser has enough of `element` to play it through (HAVE_ENOUGH_DATA). */
function canPlayThrough(element: HTMLAudioElement, duration = 100): void {
  Object.defineProperty(element, 'readyState', { value: 4, configurable: true });
  Object.defineProperty(element, 'duration', { value: duration, configurable: true });
  element.dispatchEvent(new Event('canplaythrough'));
}

const flush = () => vi.advanceTimersByTimeAsync(0);

let backend: ReturnType<typeof createHowlerBackend>;
let unloadLater: (() => void)[];
let stop: () => void;

beforeEach(() => {
  vi.useFakeTimers();
  elements = [];
  calls.clear();
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    record(this, `load ${this.src.startsWith(SILENT_PREFIX) ? 'silence' : this.src}`);
    if (this.src && !this.src.startsWith(SILENT_PREFIX) && !elements.includes(this as never))
      elements.push(this as HTMLAudioElement);
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    record(this, 'play');
    Object.defineProperty(this, 'paused', { value: false, configurable: true });
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    record(this, 'pause');
    Object.defineProperty(this, 'paused', { value: true, configurable: true });
  });
  actions.resetPlayer();
  unloadLater = [];
  backend = createHowlerBackend({ schedule: (task) => unloadLater.push(task), debugHook: true });
  stop = new PlayerEngine({
    backend,
    currentUserId: () => null,
    mediaSession: new MediaSessionBridge(null, null),
  }).start();
});
afterEach(() => {
  stop();
  for (const task of unloadLater) task();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the engine on Howler (HTML5 audio)', () => {
  it("plays in an element of Howler's pool, unlocked at the first click, and gives it back", async () => {
    // The player's warm-up when the page is idle (index.ts): a Howl that loads nothing sets
    // Howler's AudioContext and its unlock at the first gesture.
    warmUp();
    made.length = 0;
    document.dispatchEvent(new MouseEvent('click'));
    expect(made).toHaveLength(HTML5_POOL_SIZE);
    const unlocked = [...made];
    actions.clickTrack([a, b], a);
    await flush();
    const first = elementOf(a)!;
    expect(unlocked).toContain(first);
    canPlayThrough(first);
    await flush();
    actions.clickTrack([a, b], b);
    await flush();
    for (const task of unloadLater.splice(0)) task();
    // Back in the pool once unloaded: the next sound may take it again (no new element).
    actions.clickTrack([a, b], a);
    await flush();
    expect(unlocked).toContain(elementOf(a));
    expect(made).toHaveLength(HTML5_POOL_SIZE);
  });

  it('plays a track through an HTML5 Howl: its element streams the URL and play() waits for canplaythrough', async () => {
    actions.clickTrack([a, b], a);
    await flush();
    const [sound] = backend.sounds();
    expect(sound?.howl).toBeInstanceOf(Howl);
    expect(sound?.src).toBe(a.audioUrl);
    // HTML5 mode: an <audio> element loads the URL itself (Web Audio would fetch and decode it).
    const element = elementOf(a)!;
    expect(element).toBeInstanceOf(HTMLAudioElement);
    expect(element.preload).toBe('auto');
    expect(calls.get(element)).toEqual([`load ${a.audioUrl}`]);
    // Howler plays an HTML5 sound once it can play through (docs/player.md, "What Howler costs").
    expect(sound?.howl.playing()).toBe(false);
    canPlayThrough(element);
    await flush();
    expect(calls.get(element)).toEqual([`load ${a.audioUrl}`, 'play']);
    expect(sound?.howl.playing()).toBe(true);
    expect(sound?.howl.state()).toBe('loaded');
    expect(playerState.duration).toBe(100);
    expect(window.__soundloftPlayer?.engine).toBe('howler');
    expect(window.__soundloftPlayer?.sounds().map((s) => s.src)).toEqual([a.audioUrl]);
  });

  it('pauses and resumes the same Howl, and seeks through it', async () => {
    actions.clickTrack([a, b], a);
    await flush();
    const element = elementOf(a)!;
    canPlayThrough(element);
    await flush();
    actions.pause();
    await flush();
    expect(backend.sounds()[0]?.howl.playing()).toBe(false);
    expect(calls.get(element)?.at(-1)).toBe('pause');
    actions.seek(42);
    await flush();
    expect(element.currentTime).toBe(42);
    actions.play();
    await flush();
    expect(backend.sounds()[0]?.howl.playing()).toBe(true);
    expect(calls.get(element)?.at(-1)).toBe('play');
    expect(element.currentTime).toBe(42);
  });

  it('a replaced sound is paused at once and unloaded (its element emptied) only later', async () => {
    actions.clickTrack([a, b], a);
    await flush();
    const first = elementOf(a)!;
    canPlayThrough(first);
    await flush();
    actions.clickTrack([a, b], b);
    await flush();
    expect(backend.sounds().map((s) => s.src)).toEqual([b.audioUrl]);
    expect(calls.get(first)?.at(-1)).toBe('pause');
    expect(first.src).toBe(a.audioUrl);
    expect(unloadLater).toHaveLength(1);
    for (const task of unloadLater.splice(0)) task();
    // Howler's unload: its silent data URI stops the download.
    expect(first.src.startsWith(SILENT_PREFIX)).toBe(true);
    const second = elementOf(b)!;
    canPlayThrough(second);
    await flush();
    expect(calls.get(second)?.at(-1)).toBe('play');
  });

  it("the player's volume is Howler's master volume", async () => {
    actions.setVolume(0.4);
    actions.clickTrack([a, b], a);
    await flush();
    const element = elementOf(a)!;
    canPlayThrough(element);
    await flush();
    expect(Howler.volume()).toBeCloseTo(0.4);
    expect(element.volume).toBeCloseTo(0.4);
    actions.setVolume(0.2);
    await flush();
    expect(element.volume).toBeCloseTo(0.2);
  });

  it("an element's load error is the track's: reported and skipped to the next", async () => {
    actions.clickTrack([a, b], a);
    await flush();
    elementOf(a)!.dispatchEvent(new Event('error'));
    await flush();
    expect(playerState.error).toBe(`Couldn't load "Alpha". Skipped to the next track.`);
    expect(playerState.currentTrack?.id).toBe('b');
  });

  it("Howler's pool of unlocked elements is sized for the sounds the engine holds", () => {
    expect(Howler.html5PoolSize).toBe(HTML5_POOL_SIZE);
  });
});
