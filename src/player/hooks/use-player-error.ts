import { useSnapshot } from 'valtio';
import { playerState } from '../store';

/** The last audio error as a human message, or null. */
export function usePlayerError(): string | null {
  return useSnapshot(playerState).error;
}
