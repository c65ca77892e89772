import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from './actions';
import { PLAYER_STORAGE_KEY, readPersisted, startPersistence, writePersisted } from './persistence';
import { playerState } from './store';
import { createTrack } from './test-tracks';

const a = createTrack({ id: 'a' });
const b = createTrack({ id: 'b' });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const saved = () => JSON.parse(localStorage.getItem(PLAYER_STORAGE_KEY) ?? 'null').state;

beforeEach(() => {
  localStorage.clear();
  actions.resetPlayer();
});
afterEach(() => vi.useRealTimers());

describe('readPersisted', () => {
  it('reads the { state, version } envelope', () => {
    localStorage.setItem(
      PLAYER_STORAGE_KEY,
      JSON.stringify({
        state: {
          currentTrack: a,
          queue: [a, b],
          volume: 0.3,
          currentTime: 12,
          repeat: 'all',
          shuffle: true,
        },
        version: 0,
      }),
    );
    expect(readPersisted(localStorage)).toEqual({
      currentTrack: a,
      queue: [a, b],
      volume: 0.3,
      currentTime: 12,
      repeat: 'all',
      shuffle: true,
    });
  });

  it.each(['not json', 'null', '42', '"text"'])('ignores %s', (raw) => {
    localStorage.setItem(PLAYER_STORAGE_KEY, raw);
    expect(readPersisted(localStorage)).toEqual({});
  });

  it('drops malformed fields one by one', () => {
    localStorage.setItem(
      PLAYER_STORAGE_KEY,
      JSON.stringify({
        state: { currentTrack: { id: 1 }, queue: [a, 'x', null], volume: 'loud', repeat: 'twice' },
      }),
    );
    expect(readPersisted(localStorage)).toEqual({ currentTrack: null, queue: [a] });
  });

  it('nothing saved gives nothing', () => {
    expect(readPersisted(localStorage)).toEqual({});
  });
});

describe('writePersisted', () => {
  it('saves the spec fields and the normalisation and autoplay settings, muted at the audible volume', () => {
    actions.clickTrack([a, b], a);
    actions.setVolume(0.4);
    actions.toggleMute();
    writePersisted(localStorage, playerState);
    expect(saved()).toEqual({
      currentTrack: a,
      queue: [a, b],
      volume: 0.4,
      currentTime: 0,
      repeat: 'off',
      shuffle: false,
      normalise: true,
      autoplay: true,
    });
  });

  it('keeps loudness normalisation off across a reload once turned off', () => {
    actions.setNormalise(false);
    writePersisted(localStorage, playerState);
    expect(readPersisted(localStorage).normalise).toBe(false);
  });

  it('survives a storage that throws', () => {
    const storage = {
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => writePersisted(storage, playerState)).not.toThrow();
  });
});

describe('startPersistence', () => {
  it('restores paused at the saved position', () => {
    localStorage.setItem(
      PLAYER_STORAGE_KEY,
      JSON.stringify({ state: { currentTrack: a, queue: [a], currentTime: 95, volume: 0.5 } }),
    );
    const stop = startPersistence();
    expect(playerState).toMatchObject({
      currentTrack: a,
      isPlaying: false,
      currentTime: 95,
      volume: 0.5,
    });
    stop();
  });

  it('writes track, queue and mode changes at once', async () => {
    const stop = startPersistence();
    actions.clickTrack([a, b], b);
    actions.cycleRepeat();
    await flush();
    expect(saved()).toMatchObject({ currentTrack: b, repeat: 'all' });
    stop();
  });

  it('throttles position writes to one every 2 s, and flushes on pagehide', async () => {
    const stop = startPersistence();
    actions.clickTrack([a], a);
    await flush();
    vi.useFakeTimers();
    actions.syncTime(1);
    await vi.advanceTimersByTimeAsync(500);
    actions.syncTime(1.5);
    await vi.advanceTimersByTimeAsync(500);
    expect(saved().currentTime).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved().currentTime).toBe(1.5);
    actions.syncTime(3);
    await vi.advanceTimersByTimeAsync(10);
    window.dispatchEvent(new Event('pagehide'));
    expect(saved().currentTime).toBe(3);
    stop();
  });

  it('stopping writes the last state and stops listening', async () => {
    const stop = startPersistence();
    actions.clickTrack([a], a);
    actions.syncTime(7);
    stop();
    expect(saved().currentTime).toBe(7);
    actions.cycleRepeat();
    await flush();
    expect(saved().repeat).toBe('off');
  });
});
