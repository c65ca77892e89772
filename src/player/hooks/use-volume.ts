import { usePlayerValue } from './use-player-value';

export function useVolume(): { volume: number; muted: boolean } {
  return usePlayerValue((s) => ({ volume: s.volume, muted: s.muted }));
}
