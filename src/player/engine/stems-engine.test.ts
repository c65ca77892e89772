// @vitest-environment node
/**
 * Stems in the engine: setting stems swaps the track's sound for the stems player at the same
 * position (playing on), the mix and volume reach it, seeking and ending go through it, and
 * clearing the stems or a new track brings the track's own audio back. The Web Audio stems player
 * cannot run in jsdom: a fake with the same interface stands in for it here; the real one plays
 * in Chromium (tests/e2e/stems.spec.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from '../actions';
import { applyStemPreset, stemGains, stemsState, toggleStemSolo } from '../stems';
import { playerState } from '../store';
import { createTrack } from '../test-tracks';
import type { SoundEvents } from './audio-backend';
import { FakeBackend, FakeSound } from './fake-backend';
import { PlayerEngine } from './player-engine';
import type { StemsSound } from './stems-sound';

class FakeStems extends FakeSound implements StemsSound {
  gains: readonly number[] = [];
  master = 1;
  constructor(
    readonly urls: readonly string[],
    events: SoundEvents,
  ) {
    super(urls[0] ?? '', { preload: true }, events);
  }
  setGains(gains: readonly number[]) {
    this.gains = [...gains];
  }
  setMaster(volume: number) {
    this.master = volume;
  }
  playingSources() {
    return this.playing ? 4 : 0;
  }
}

const a = createTrack({ id: 'a', title: 'Alpha', duration: 100 });
const b = createTrack({ id: 'b', title: 'Beta', duration: 100 });
const URLS = ['v', 'd', 'b', 'o'].map((s) => `https://x.test/stems/a/${s}.mp3`);
const settle = () => vi.advanceTimersByTimeAsync(0);

let backend: FakeBackend;
let stems: FakeStems[];
let stop: () => void;

beforeEach(() => {
  vi.useFakeTimers();
  actions.resetPlayer();
  applyStemPreset('all');
  backend = new FakeBackend();
  stems = [];
  stop = new PlayerEngine({
    backend,
    currentUserId: () => null,
    createStemsSound: (urls, events) => {
      const s = new FakeStems(urls, events);
      stems.push(s);
      return s;
    },
  }).start();
});
afterEach(() => {
  stop();
  vi.useRealTimers();
});

describe('stems in the engine', () => {
  it('swaps to the stems at the same position, plays on, and swaps back when cleared', async () => {
    actions.playPlaylist([a, b]);
    await settle();
    const own = backend.sound('a');
    own.load(100);
    own.started();
    own.currentPosition = 42;
    actions.setStems(URLS);
    await settle();
    expect(own.unloaded).toBe(true);
    const s = stems[0]!;
    expect(s.urls).toEqual(URLS);
    expect(s.calls).toEqual(['seek:42', 'play']);
    expect(s.gains).toEqual([1, 1, 1, 1]);
    s.load(100);
    s.started();
    expect(playerState.duration).toBe(100);

    // Mix and volume reach the stems player.
    applyStemPreset('karaoke');
    await settle();
    expect(s.gains).toEqual([0, 1, 1, 1]);
    toggleStemSolo('bass');
    await settle();
    expect(s.gains).toEqual([0, 0, 1, 0]);
    actions.setVolume(0.5);
    await settle();
    expect(s.master).toBe(0.5);

    // Seek and pause go through the stems.
    actions.seek(10);
    await settle();
    expect(s.calls).toContain('seek:10');
    actions.pause();
    await settle();
    expect(s.calls.at(-1)).toBe('pause');
    actions.play();
    await settle();

    // Off: the track's own audio from where the stems were.
    s.currentPosition = 12;
    actions.setStems(null);
    await settle();
    expect(s.unloaded).toBe(true);
    const back = backend.sound('a');
    expect(back).not.toBe(own);
    expect(back.calls).toEqual(['seek:12', 'play']);
  });

  it('a new track clears the stems and plays its own audio', async () => {
    actions.playPlaylist([a, b]);
    await settle();
    backend.sound('a').load(100);
    actions.setStems(URLS);
    await settle();
    actions.next();
    await settle();
    expect(playerState.stems).toBeNull();
    expect(stems[0]!.unloaded).toBe(true);
    expect(backend.live()).toContain('b');
  });

  it('stems that fail to load fall back to the track with the spec message', async () => {
    actions.playPlaylist([a, b]);
    await settle();
    backend.sound('a').load(100);
    stemsState.trackId = 'a';
    actions.setStems(URLS);
    await settle();
    stems[0]!.events.onLoadError(new Error('HTTP 403'));
    await settle();
    expect(playerState.stems).toBeNull();
    expect(playerState.currentTrack?.id).toBe('a');
    expect(stemsState.status).toBe('error');
    expect(stemsState.error).toBe('Failed to separate stems');
    expect(backend.sound('a').unloaded).toBe(false);
  });
});

describe('stem gains', () => {
  it('mute silences a stem, solo silences the others, volume scales', () => {
    const mix = {
      vocals: { volume: 0.5, muted: false, solo: false },
      drums: { volume: 1, muted: true, solo: false },
      bass: { volume: 1, muted: false, solo: false },
      other: { volume: 1, muted: false, solo: false },
    };
    expect(stemGains(mix)).toEqual([0.5, 0, 1, 1]);
    expect(stemGains({ ...mix, bass: { volume: 0.8, muted: false, solo: true } })).toEqual([
      0, 0, 0.8, 0,
    ]);
  });

  it('"Vocals only" leaves the vocals alone, "Karaoke" everything but them', () => {
    applyStemPreset('vocals-only');
    expect(stemGains(stemsState.mix)).toEqual([1, 0, 0, 0]);
    applyStemPreset('karaoke');
    expect(stemGains(stemsState.mix)).toEqual([0, 1, 1, 1]);
  });
});
