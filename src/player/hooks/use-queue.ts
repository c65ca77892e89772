import { useSnapshot } from 'valtio';
import { playerState } from '../store';
import type { PlayerTrack } from '../types';

export function useQueue(): readonly PlayerTrack[] {
  return useSnapshot(playerState).queue;
}
