// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from './actions';
import { onPlayerCommand, type PlayerCommand } from './commands';
import { DEFAULT_VOLUME, playerState } from './store';
import { createTrack } from './test-tracks';

const a = createTrack({ id: 'a' });
const b = createTrack({ id: 'b' });
const c = createTrack({ id: 'c' });

let commands: PlayerCommand[];
let stopListening: () => void;
beforeEach(() => {
  actions.resetPlayer();
  commands = [];
  stopListening = onPlayerCommand((command) => commands.push(command));
});
afterEach(() => stopListening());

describe('player actions', () => {
  it('start from the spec defaults: volume 0.7, nothing playing', () => {
    expect(playerState).toMatchObject({
      currentTrack: null,
      isPlaying: false,
      volume: DEFAULT_VOLUME,
      muted: false,
      repeat: 'off',
      shuffle: false,
    });
    expect(DEFAULT_VOLUME).toBe(0.7);
  });

  it('clickTrack queues the list and plays; next and previous walk it', () => {
    actions.clickTrack([a, b, c], b);
    expect(playerState.currentTrack?.id).toBe('b');
    expect(playerState.queue.map((t) => t.id)).toEqual(['a', 'b', 'c']);
    actions.next();
    expect(playerState.currentTrack?.id).toBe('c');
    actions.previous();
    actions.previous();
    expect(playerState.currentTrack?.id).toBe('a');
  });

  it('shuffle uses the injected random source', () => {
    const restore = actions.setRandomSource(() => 0.99);
    actions.clickTrack([a, b, c], a);
    actions.toggleShuffle();
    actions.next();
    expect(playerState.currentTrack?.id).toBe('c');
    restore();
  });

  it('play and togglePlay do nothing without a track', () => {
    actions.play();
    actions.togglePlay();
    expect(playerState.isPlaying).toBe(false);
  });

  it('a restart of the same track tells the engine to seek to 0', () => {
    actions.clickTrack([a], a);
    actions.cycleRepeat(); // all
    actions.syncTime(12);
    actions.next();
    expect(playerState).toMatchObject({ currentTime: 0, isPlaying: true });
    expect(commands).toEqual([{ type: 'seek', time: 0 }]);
  });

  it('seek clamps to the track and emits a seek command; nothing without a track', () => {
    actions.seek(10);
    expect(commands).toEqual([]);
    actions.clickTrack([a], a);
    actions.syncDuration(100);
    actions.seek(150);
    actions.seek(-5);
    actions.seekBy(7);
    expect(commands.map((cmd) => cmd.time)).toEqual([100, 0, 7]);
    expect(playerState.currentTime).toBe(7);
  });

  it.each([
    [0.5, 0.5],
    [1.5, 1],
    [-1, 0],
    [Number.NaN, DEFAULT_VOLUME],
  ])('setVolume(%s) gives %s', (input, expected) => {
    actions.setVolume(input);
    expect(playerState.volume).toBe(expected);
  });

  it('keeps the volume on the 0.01 grid (keyboard steps add no float noise)', () => {
    actions.setVolume(0.7);
    actions.changeVolumeBy(-0.05);
    expect(playerState.volume).toBe(0.65);
    actions.changeVolumeBy(0.05);
    expect(playerState.volume).toBe(0.7);
    actions.setVolume(0.123);
    expect(playerState.volume).toBe(0.12);
  });

  it('mute keeps the prior volume and unmute restores it', () => {
    actions.setVolume(0.42);
    actions.toggleMute();
    expect(playerState).toMatchObject({ muted: true, volume: 0 });
    actions.toggleMute();
    expect(playerState).toMatchObject({ muted: false, volume: 0.42 });
  });

  it('unmuting after the slider went to 0 restores 0.7', () => {
    actions.setVolume(0);
    expect(playerState.muted).toBe(true);
    actions.toggleMute();
    expect(playerState).toMatchObject({ muted: false, volume: 0.7 });
  });

  it('moving the volume while muted unmutes', () => {
    actions.toggleMute();
    actions.setVolume(0.3);
    expect(playerState).toMatchObject({ muted: false, volume: 0.3 });
    actions.toggleMute();
    actions.changeVolumeBy(0.05);
    expect(playerState.volume).toBeCloseTo(0.05);
  });

  it('restore is paused at the saved position', () => {
    actions.restore({
      currentTrack: a,
      queue: [a, b],
      currentTime: 61,
      volume: 0.2,
      repeat: 'one',
    });
    expect(playerState).toMatchObject({
      currentTrack: a,
      isPlaying: false,
      currentTime: 61,
      volume: 0.2,
      repeat: 'one',
      shuffle: false,
    });
  });

  it('restore without a track keeps no position', () => {
    actions.restore({ currentTrack: null, currentTime: 61 });
    expect(playerState.currentTime).toBe(0);
  });

  it('errors are shown until the listener picks something else', () => {
    actions.clickTrack([a, b], a);
    actions.reportError('Could not load');
    actions.next();
    expect(playerState.error).toBe('Could not load');
    actions.clickTrack([a, b], a);
    expect(playerState.error).toBeNull();
  });

  it('setTrack clears stems; setStems stores a copy', () => {
    actions.setTrack(a);
    actions.setStems(['v.mp3']);
    expect(playerState.stems).toEqual(['v.mp3']);
    actions.setTrack(b);
    expect(playerState.stems).toBeNull();
  });

  it('syncTime and syncDuration ignore impossible values', () => {
    actions.setTrack(a);
    actions.syncTime(5);
    actions.syncTime(Number.NaN);
    actions.syncDuration(0);
    expect(playerState).toMatchObject({ currentTime: 5, duration: 0 });
  });

  it('playFromTrackPage and playPlaylist go through the queue rules', () => {
    const catalogue = [a, b, createTrack({ id: 'x', artist: 'Other' })];
    actions.playFromTrackPage(a, catalogue);
    expect(playerState.queue.map((t) => t.id)).toEqual(['a', 'b']);
    actions.playPlaylist([b, a]);
    expect(playerState.isPlaying).toBe(false);
    actions.playPlaylist([c]);
    expect(playerState).toMatchObject({ currentTrack: c, isPlaying: true });
  });

  it('stop clears the track', () => {
    const spy = vi.fn();
    actions.setTrack(a);
    actions.stop();
    spy(playerState.currentTrack);
    expect(spy).toHaveBeenCalledWith(null);
  });
});
