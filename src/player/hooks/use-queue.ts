import type { PlayerTrack } from '../types';
import { usePlayerValue } from './use-player-value';

export function useQueue(): readonly PlayerTrack[] {
  return usePlayerValue((s) => s.queue);
}
