// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from './actions';
import { setAutoplaySource } from './autoplay';
import { readPersisted, writePersisted } from './persistence';
import { continueWith } from './queue';
import { stateWith } from './queue-test-fixtures';
import { playerState } from './store';
import { createTrack } from './test-tracks';

const a = createTrack({ id: 'a' });
const b = createTrack({ id: 'b' });
const x = createTrack({ id: 'x' });
const y = createTrack({ id: 'y' });

beforeEach(() => actions.resetPlayer());
afterEach(() => setAutoplaySource(null));

/** Plays [a, b] and lets b end: the end of the queue. */
function endQueue() {
  actions.clickTrack([a, b], b);
  actions.trackEnded();
}

describe('autoplay', () => {
  it('is on by default and kept with the player', () => {
    expect(playerState.autoplay).toBe(true);
    actions.setAutoplay(false);
    const saved: Record<string, string> = {};
    writePersisted({ setItem: (k, v) => (saved[k] = v) }, playerState);
    expect(readPersisted({ getItem: (k) => saved[k] ?? null }).autoplay).toBe(false);
  });

  it('continues with similar tracks when the queue ends, seeded by the ended track', async () => {
    const source = vi.fn(async () => [a, x, y]);
    setAutoplaySource(source);
    endQueue();
    await vi.waitFor(() => expect(playerState.currentTrack?.id).toBe('x'));
    expect(source).toHaveBeenCalledWith(b, [a, b]);
    expect(playerState.isPlaying).toBe(true);
    // Tracks already queued are not added again.
    expect(playerState.queue.map((t) => t.id)).toEqual(['a', 'b', 'x', 'y']);
  });

  it('does nothing when turned off, with repeat, or before the end of the queue', async () => {
    const source = vi.fn(async () => [x]);
    setAutoplaySource(source);
    actions.setAutoplay(false);
    endQueue();
    actions.setAutoplay(true);
    actions.cycleRepeat(); // all: the queue wraps instead
    endQueue();
    expect(playerState.currentTrack?.id).toBe('a');
    actions.cycleRepeat();
    actions.cycleRepeat(); // back to off
    actions.clickTrack([a, b], a);
    actions.trackEnded(); // a ended, b follows
    await Promise.resolve();
    expect(source).not.toHaveBeenCalled();
    expect(playerState.currentTrack?.id).toBe('b');
  });

  it('stops quietly when the source fails or finds nothing, and yields to the listener', async () => {
    setAutoplaySource(async () => {
      throw new Error('offline');
    });
    endQueue();
    await new Promise((r) => setTimeout(r, 0));
    expect(playerState).toMatchObject({ isPlaying: false, error: null });
    expect(playerState.currentTrack?.id).toBe('b');

    let answer: (tracks: (typeof x)[]) => void = () => undefined;
    setAutoplaySource(() => new Promise((resolve) => (answer = resolve)));
    endQueue();
    actions.clickTrack([a], a); // the listener chose something meanwhile
    answer([x]);
    await new Promise((r) => setTimeout(r, 0));
    expect(playerState.currentTrack?.id).toBe('a');
    expect(playerState.queue.map((t) => t.id)).toEqual(['a']);
  });

  it('continueWith adds only new tracks and plays the first of them', () => {
    const ended = stateWith({ currentTrack: b, queue: [a, b], isPlaying: false });
    expect(continueWith(ended, [a, b])).toBe(ended);
    expect(continueWith(ended, [y, a, y])).toMatchObject({
      currentTrack: y,
      isPlaying: true,
      queue: [a, b, y],
    });
  });
});
