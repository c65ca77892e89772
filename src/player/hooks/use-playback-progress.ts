import { usePlayerValue } from './use-player-value';

/**
 * Position and length in seconds. The length falls back to the track's stored duration until the
 * audio reports its own.
 */
export function usePlaybackProgress(): { currentTime: number; duration: number } {
  return usePlayerValue((s) => ({
    currentTime: s.currentTime,
    duration: s.duration > 0 ? s.duration : (s.currentTrack?.duration ?? 0),
  }));
}
