import type { RepeatMode } from '../types';
import { usePlayerValue } from './use-player-value';

export function usePlaybackModes(): {
  repeat: RepeatMode;
  shuffle: boolean;
  normalise: boolean;
  autoplay: boolean;
} {
  return usePlayerValue((s) => ({
    repeat: s.repeat,
    shuffle: s.shuffle,
    normalise: s.normalise,
    autoplay: s.autoplay,
  }));
}
