import { usePlayerValue } from './use-player-value';

export function useIsPlaying(): boolean {
  return usePlayerValue((s) => s.isPlaying);
}
