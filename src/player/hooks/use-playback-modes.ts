import { useSnapshot } from 'valtio';
import { playerState } from '../store';
import type { RepeatMode } from '../types';

export function usePlaybackModes(): { repeat: RepeatMode; shuffle: boolean; normalise: boolean } {
  const snap = useSnapshot(playerState);
  return { repeat: snap.repeat, shuffle: snap.shuffle, normalise: snap.normalise };
}
