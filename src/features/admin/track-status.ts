import type { Track } from '@/data';

/** Spec 4: 'Approved' when verified, else 'Pending review'; a taken-down track says so. */
export function trackStatus(track: Track): { label: string; color: string } {
  if (track.takenDownAt) return { label: 'Taken down', color: 'red' };
  return track.verified
    ? { label: 'Approved', color: 'green' }
    : { label: 'Pending review', color: 'yellow' };
}
