import { useSnapshot } from 'valtio';
import { playerState } from '../store';
import type { PlayerTrack } from '../types';

/**
 * Whether the player's current track is one of `tracks` and playing: what a playlist's
 * play/pause button shows.
 */
export function useIsPlayingFrom(tracks: readonly PlayerTrack[]): boolean {
  const snap = useSnapshot(playerState);
  const current = snap.currentTrack;
  return snap.isPlaying && current !== null && tracks.some((t) => t.id === current.id);
}
