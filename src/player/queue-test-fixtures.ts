/** Shared fixtures of the queue rule tests (queue.test.ts, queue-entry-points.test.ts). */
import { INITIAL_QUEUE_STATE, type QueueState } from './queue';
import { createTrack } from './test-tracks';
import type { PlayerTrack } from './types';

export const a = createTrack({ id: 'a' });
export const b = createTrack({ id: 'b' });
export const c = createTrack({ id: 'c' });
export const d = createTrack({ id: 'd' });
export const abc = [a, b, c];

/** A random source returning the given values in turn (then the last one forever). */
export const randoms = (...values: number[]) => {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)] ?? 0;
};
export const never = () => {
  throw new Error('random() must not be called');
};

export function stateWith(overrides: Partial<QueueState>): QueueState {
  return {
    ...INITIAL_QUEUE_STATE,
    queue: abc,
    currentTrack: a,
    isPlaying: true,
    currentTime: 42,
    duration: 180,
    stems: ['https://cdn.test/vocals.mp3'],
    ...overrides,
  };
}

/** What a fresh track looks like: time and duration reset, playing, no stems. */
export const startedOn = (track: PlayerTrack) => ({
  currentTrack: track,
  currentTime: 0,
  duration: 0,
  isPlaying: true,
  stems: null,
});
/**
 * The end of the queue without repeat all: the track stays current, paused at its start, its
 * length and stems (stateWith's) kept.
 */
export const endedOn = (track: PlayerTrack) => ({
  currentTrack: track,
  isPlaying: false,
  currentTime: 0,
  duration: 180,
  stems: ['https://cdn.test/vocals.mp3'],
});
