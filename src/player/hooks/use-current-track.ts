import type { PlayerTrack } from '../types';
import { usePlayerValue } from './use-player-value';

/** The track in the player, or null; re-renders only when it changes. */
export function useCurrentTrack(): PlayerTrack | null {
  return usePlayerValue((s) => s.currentTrack);
}
