import type { PlayerTrack } from '../types';
import { usePlayerValue } from './use-player-value';

/**
 * Whether the player's current track is one of `tracks` and playing: what a playlist's
 * play/pause button shows.
 */
export function useIsPlayingFrom(tracks: readonly PlayerTrack[]): boolean {
  const { id, isPlaying } = usePlayerValue((s) => ({
    id: s.currentTrack?.id ?? null,
    isPlaying: s.isPlaying,
  }));
  return isPlaying && id !== null && tracks.some((t) => t.id === id);
}
