import { useSnapshot } from 'valtio';
import { playerState } from '../store';

export function useVolume(): { volume: number; muted: boolean } {
  const snap = useSnapshot(playerState);
  return { volume: snap.volume, muted: snap.muted };
}
