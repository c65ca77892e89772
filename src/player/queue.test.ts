// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  INITIAL_QUEUE_STATE,
  cycleRepeat,
  next,
  pause,
  play,
  previous,
  setTrack,
  togglePlay,
  toggleShuffle,
  trackEnded,
  type QueueState,
} from './queue';
import {
  a,
  abc,
  b,
  c,
  d,
  never,
  randoms,
  startedOn,
  stateWith,
  endedOn,
} from './queue-test-fixtures';
import type { RepeatMode } from './types';

describe('initial state', () => {
  it('has no track, an empty queue, repeat off, shuffle off, paused', () => {
    expect(INITIAL_QUEUE_STATE).toEqual({
      currentTrack: null,
      queue: [],
      isPlaying: false,
      currentTime: 0,
      duration: 0,
      repeat: 'off',
      shuffle: false,
      stems: null,
    });
  });
});

describe('cycleRepeat', () => {
  it.each<[RepeatMode, RepeatMode]>([
    ['off', 'all'],
    ['all', 'one'],
    ['one', 'off'],
  ])('%s → %s', (from, to) => {
    expect(cycleRepeat(stateWith({ repeat: from })).repeat).toBe(to);
  });

  it('comes back to off after three presses and touches nothing else', () => {
    const start = stateWith({ repeat: 'off' });
    expect(cycleRepeat(cycleRepeat(cycleRepeat(start)))).toEqual(start);
  });
});

describe('toggleShuffle', () => {
  it.each([
    [false, true],
    [true, false],
  ])('%s → %s, queue order untouched', (from, to) => {
    const result = toggleShuffle(stateWith({ shuffle: from }));
    expect(result.shuffle).toBe(to);
    expect(result.queue).toEqual(abc);
  });
});

describe('setTrack', () => {
  it('resets time and duration, starts playing and clears stems; keeps the queue', () => {
    const result = setTrack(stateWith({ isPlaying: false }), b);
    expect(result).toMatchObject(startedOn(b));
    expect(result.queue).toBe(abc);
  });

  it('setting the same track restarts it', () => {
    expect(setTrack(stateWith({ currentTime: 99 }), a)).toMatchObject(startedOn(a));
  });

  it('does not mutate the given state', () => {
    const start = Object.freeze(stateWith({}));
    setTrack(start, b);
    expect(start.currentTrack).toBe(a);
  });
});

describe('play, pause, togglePlay', () => {
  it('play and togglePlay do nothing without a track', () => {
    const empty = INITIAL_QUEUE_STATE;
    expect(play(empty)).toBe(empty);
    expect(togglePlay(empty)).toBe(empty);
  });

  it.each([
    ['play', play, false, true],
    ['play', play, true, true],
    ['pause', pause, true, false],
    ['pause', pause, false, false],
    ['togglePlay', togglePlay, true, false],
    ['togglePlay', togglePlay, false, true],
  ] as const)('%s from playing=%s gives playing=%s', (_name, fn, from, to) => {
    const result = fn(stateWith({ isPlaying: from }));
    expect(result.isPlaying).toBe(to);
    expect(result.currentTime).toBe(42);
    expect(result.currentTrack).toBe(a);
  });
});

describe('next (no shuffle)', () => {
  it.each<[string, Partial<QueueState>, Partial<QueueState>]>([
    ['first → second', { currentTrack: a }, startedOn(b)],
    ['middle → last', { currentTrack: b }, startedOn(c)],
    [
      'end, repeat off: stops on the last track, paused at its start',
      { currentTrack: c },
      endedOn(c),
    ],
    ['end, repeat all: wraps to the first', { currentTrack: c, repeat: 'all' }, startedOn(a)],
    [
      'end, repeat one: stops on the last track (only all wraps)',
      { currentTrack: c, repeat: 'one' },
      endedOn(c),
    ],
    [
      'repeat one, not at the end: still advances',
      { currentTrack: a, repeat: 'one' },
      startedOn(b),
    ],
    ['one-item queue, repeat off: stops on it', { queue: [a] }, endedOn(a)],
    ['one-item queue, repeat all: restarts it', { queue: [a], repeat: 'all' }, startedOn(a)],
    ['current not in queue: plays the first', { currentTrack: d }, startedOn(a)],
    ['paused: the next track starts playing', { currentTrack: a, isPlaying: false }, startedOn(b)],
  ])('%s', (_name, given, expected) => {
    const result = next(stateWith(given), never);
    expect(result).toMatchObject(expected);
  });

  it('keeps the queue, repeat and shuffle when it stops', () => {
    const result = next(stateWith({ currentTrack: c, repeat: 'one' }), never);
    expect(result).toMatchObject({ queue: abc, repeat: 'one', shuffle: false });
  });

  it('at the end, play after the stop starts the last track again from its start', () => {
    const resumed = play(next(stateWith({ currentTrack: c, currentTime: 179 }), never));
    expect(resumed).toMatchObject({ currentTrack: c, isPlaying: true, currentTime: 0 });
  });

  it('does nothing with an empty queue', () => {
    const start = stateWith({ queue: [] });
    expect(next(start, never)).toBe(start);
  });

  it('does nothing without a current track', () => {
    const start = stateWith({ currentTrack: null, isPlaying: false });
    expect(next(start, never)).toBe(start);
    expect(next(INITIAL_QUEUE_STATE, never)).toBe(INITIAL_QUEUE_STATE);
  });
});

describe('next (shuffle)', () => {
  it.each<[number, string]>([
    [0, 'b'],
    [0.49, 'b'],
    [0.5, 'c'],
    [0.999, 'c'],
  ])('random %s picks %s among the OTHER tracks', (r, id) => {
    expect(next(stateWith({ shuffle: true }), () => r).currentTrack?.id).toBe(id);
  });

  it('never picks the current track', () => {
    for (let r = 0; r < 1; r += 0.01) {
      expect(
        next(stateWith({ shuffle: true, currentTrack: b }), () => r).currentTrack?.id,
      ).not.toBe('b');
    }
  });

  it('does not stop at the end of the queue', () => {
    const result = next(stateWith({ shuffle: true, currentTrack: c }), () => 0);
    expect(result).toMatchObject(startedOn(a));
  });

  it('a random source returning 1 stays inside the queue', () => {
    expect(next(stateWith({ shuffle: true }), () => 1).currentTrack?.id).toBe('c');
  });

  it('with one item, repeat off: stops on it', () => {
    expect(next(stateWith({ shuffle: true, queue: [a] }), randoms(0.3))).toMatchObject(endedOn(a));
  });

  it('with one item, repeat all: restarts it', () => {
    const result = next(stateWith({ shuffle: true, queue: [a], repeat: 'all' }), randoms(0.3));
    expect(result).toMatchObject(startedOn(a));
  });

  it('current not in the queue: any queue item may come', () => {
    expect(next(stateWith({ shuffle: true, currentTrack: d }), () => 0.9).currentTrack?.id).toBe(
      'c',
    );
  });
});

describe('previous', () => {
  it.each<[string, Partial<QueueState>, Partial<QueueState>]>([
    ['last → middle', { currentTrack: c }, startedOn(b)],
    ['middle → first', { currentTrack: b }, startedOn(a)],
    ['repeat all does not wrap backwards', { currentTrack: b, repeat: 'all' }, startedOn(a)],
    ['paused: the prior track starts playing', { currentTrack: b, isPlaying: false }, startedOn(a)],
  ])('%s', (_name, given, expected) => {
    expect(previous(stateWith(given), never)).toMatchObject(expected);
  });

  it.each<[string, Partial<QueueState>]>([
    ['at the start', { currentTrack: a }],
    ['at the start with repeat all', { currentTrack: a, repeat: 'all' }],
    ['with one item', { queue: [a] }],
    ['with one item and shuffle', { queue: [a], shuffle: true }],
    ['when the current track is not in the queue', { currentTrack: d }],
    ['with an empty queue', { queue: [] }],
    ['without a current track', { currentTrack: null }],
  ])('does nothing %s', (_name, given) => {
    const start = stateWith(given);
    expect(previous(start, () => 0)).toBe(start);
  });

  it('with shuffle picks a random other track, even at the start', () => {
    expect(previous(stateWith({ shuffle: true, currentTrack: a }), () => 0.7)).toMatchObject(
      startedOn(c),
    );
  });
});

describe('trackEnded', () => {
  it('repeat one restarts the same track', () => {
    const result = trackEnded(
      stateWith({ repeat: 'one', currentTrack: b, currentTime: 180 }),
      never,
    );
    expect(result).toMatchObject(startedOn(b));
  });

  it('repeat one restarts even the last track of the queue and with shuffle', () => {
    const result = trackEnded(stateWith({ repeat: 'one', currentTrack: c, shuffle: true }), never);
    expect(result).toMatchObject(startedOn(c));
  });

  it.each<[string, Partial<QueueState>, Partial<QueueState>]>([
    ['repeat off advances', { currentTrack: a }, startedOn(b)],
    ['repeat all advances', { currentTrack: b, repeat: 'all' }, startedOn(c)],
    ['repeat off at the end stops on the last track', { currentTrack: c }, endedOn(c)],
    ['repeat all at the end wraps', { currentTrack: c, repeat: 'all' }, startedOn(a)],
  ])('%s', (_name, given, expected) => {
    expect(trackEnded(stateWith(given), never)).toMatchObject(expected);
  });

  it('with shuffle advances to a random other track', () => {
    expect(trackEnded(stateWith({ shuffle: true }), () => 0.6)).toMatchObject(startedOn(c));
  });

  it('does nothing without a current track', () => {
    expect(trackEnded(INITIAL_QUEUE_STATE, never)).toBe(INITIAL_QUEUE_STATE);
  });
});
