import { useSnapshot } from 'valtio';
import { stemsState } from '../stems';
import { useCurrentTrack } from './use-current-track';

/** The stems request of the current track: 'off' for another track's. */
export function useStems() {
  const snap = useSnapshot(stemsState);
  const track = useCurrentTrack();
  const mine = track !== null && snap.trackId === track.id;
  return { ...snap, status: mine ? snap.status : ('off' as const), trackId: track?.id ?? null };
}
