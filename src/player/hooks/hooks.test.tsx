import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import * as actions from '../actions';
import { createTrack } from '../test-tracks';
import { useCurrentTrack } from './use-current-track';
import { useIsPlayingFrom } from './use-is-playing-from';
import { usePlaybackModes } from './use-playback-modes';
import { usePlaybackProgress } from './use-playback-progress';
import { useVolume } from './use-volume';
import { holdPlayerViews } from '../ui-hold';

const a = createTrack({ id: 'a', duration: 180 });
const b = createTrack({ id: 'b' });

beforeEach(() => actions.resetPlayer());

describe('player selector hooks', () => {
  it('useCurrentTrack follows the store', async () => {
    const { result } = renderHook(() => useCurrentTrack());
    expect(result.current).toBeNull();
    await act(async () => actions.setTrack(a));
    expect(result.current?.id).toBe('a');
  });

  it('usePlaybackProgress falls back to the stored duration until the audio reports one', async () => {
    const { result } = renderHook(() => usePlaybackProgress());
    expect(result.current).toEqual({ currentTime: 0, duration: 0 });
    await act(async () => actions.setTrack(a));
    expect(result.current.duration).toBe(180);
    await act(async () => {
      actions.syncDuration(181.5);
      actions.syncTime(3);
    });
    expect(result.current).toEqual({ currentTime: 3, duration: 181.5 });
  });

  it('useIsPlayingFrom is true only while one of the tracks plays', async () => {
    const { result } = renderHook(() => useIsPlayingFrom([a]));
    expect(result.current).toBe(false);
    await act(async () => actions.playPlaylist([a]));
    expect(result.current).toBe(true);
    await act(async () => actions.playPlaylist([a]));
    expect(result.current).toBe(false);
    await act(async () => actions.clickTrack([b], b));
    expect(result.current).toBe(false);
  });

  it('useVolume and usePlaybackModes', async () => {
    const volume = renderHook(() => useVolume());
    const modes = renderHook(() => usePlaybackModes());
    await act(async () => {
      actions.toggleMute();
      actions.cycleRepeat();
      actions.toggleShuffle();
    });
    expect(volume.result.current).toEqual({ volume: 0, muted: true });
    expect(modes.result.current).toEqual({
      repeat: 'all',
      shuffle: true,
      normalise: true,
      autoplay: true,
    });
  });

  it('waits while the views are held (a sound starting), then shows the store as it is', async () => {
    const { result } = renderHook(() => useCurrentTrack());
    const release = holdPlayerViews(10_000);
    await act(async () => actions.setTrack(a));
    expect(result.current).toBeNull();
    await act(async () => release());
    expect(result.current?.id).toBe('a');
  });
});
