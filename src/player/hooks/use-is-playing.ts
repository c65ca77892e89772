import { useSnapshot } from 'valtio';
import { playerState } from '../store';

export function useIsPlaying(): boolean {
  return useSnapshot(playerState).isPlaying;
}
