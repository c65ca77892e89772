// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INITIAL_QUEUE_STATE, addToQueue, playNext } from './queue';
import { a, b, c, d, startedOn, stateWith } from './queue-test-fixtures';

describe('play next', () => {
  it('puts the track right after the current one', () => {
    expect(playNext(stateWith({ currentTrack: a }), d).queue).toEqual([a, d, b, c]);
  });
  it('moves a queued track instead of duplicating it', () => {
    expect(playNext(stateWith({ currentTrack: a }), c).queue).toEqual([a, c, b]);
  });
  it('does nothing for the current track', () => {
    const state = stateWith({ currentTrack: b });
    expect(playNext(state, b)).toBe(state);
  });
  it('starts the track when nothing is playing', () => {
    expect(playNext(INITIAL_QUEUE_STATE, d)).toMatchObject({ ...startedOn(d), queue: [d] });
  });
});

describe('add to queue', () => {
  it('appends the track', () => {
    expect(addToQueue(stateWith({}), d).queue).toEqual([a, b, c, d]);
  });
  it('leaves a queued track where it is', () => {
    const state = stateWith({});
    expect(addToQueue(state, b)).toBe(state);
  });
  it('starts the track when nothing is playing', () => {
    expect(addToQueue(INITIAL_QUEUE_STATE, d)).toMatchObject({ ...startedOn(d), queue: [d] });
  });
});
