import { useSnapshot } from 'valtio';
import { playerState } from '../store';

/**
 * Position and length in seconds. The length falls back to the track's stored duration until the
 * audio reports its own.
 */
export function usePlaybackProgress(): { currentTime: number; duration: number } {
  const snap = useSnapshot(playerState);
  return {
    currentTime: snap.currentTime,
    duration: snap.duration > 0 ? snap.duration : (snap.currentTrack?.duration ?? 0),
  };
}
