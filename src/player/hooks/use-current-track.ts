import { useSnapshot } from 'valtio';
import { playerState } from '../store';
import type { PlayerTrack } from '../types';

/** The track in the player, or null; re-renders only when it changes. */
export function useCurrentTrack(): PlayerTrack | null {
  return useSnapshot(playerState).currentTrack;
}
