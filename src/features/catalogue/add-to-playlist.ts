import { getRepositories } from '@/data';
import { toast } from '@/components/toast';

/**
 * addTrackToPlaylist through the data layer. Spec 5: adding a track already in the playlist does
 * nothing; spec 8: the failure is logged, and we also tell the listener.
 */
export async function addTrackToPlaylist(
  playlistId: string,
  playlistName: string,
  trackId: string,
): Promise<void> {
  try {
    const added = await getRepositories().playlists.addTrack(playlistId, trackId);
    if (added) toast.success(`Added to ${playlistName}`);
    else toast.info(`Already in ${playlistName}`);
  } catch (error) {
    console.error('Failed to add track to playlist', error);
    toast.error('Failed to add track to playlist');
  }
}
