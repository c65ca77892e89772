import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from './actions';
import { PLAYER_STORAGE_KEY } from './persistence';
import { startPlayer } from './start-player';
import { playerState } from './store';
import { createTrack } from './test-tracks';

const a = createTrack({ id: 'a', title: 'Alpha' });

beforeEach(() => {
  // jsdom has no media playback: keep its "not implemented" noise out of the output.
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  actions.resetPlayer();
  localStorage.clear();
});
afterEach(() => vi.restoreAllMocks());

describe('startPlayer (the element engine in jsdom)', () => {
  it('restores the saved track paused at its position, and keeps saving', async () => {
    localStorage.setItem(
      PLAYER_STORAGE_KEY,
      JSON.stringify({ state: { currentTrack: a, queue: [a], currentTime: 42, repeat: 'all' } }),
    );
    const stop = startPlayer({ currentUserId: () => null });
    expect(playerState).toMatchObject({ currentTrack: a, isPlaying: false, currentTime: 42 });
    actions.toggleShuffle();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(JSON.parse(localStorage.getItem(PLAYER_STORAGE_KEY)!).state.shuffle).toBe(true);
    stop();
  });

  it('starting again replaces the running player', () => {
    const first = startPlayer({ currentUserId: () => null });
    const second = startPlayer({ currentUserId: () => null });
    expect(() => {
      first();
      second();
    }).not.toThrow();
  });
});
