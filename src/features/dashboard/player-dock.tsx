import { useCallback, useEffect } from 'react';
import { toast } from '@/components/toast';
import { createAudioSource, getRepositories, useLikedTrackIds } from '@/data';
import {
  KeyboardShortcuts,
  PlayerBar,
  onListenQualified,
  startPlayer,
  useCurrentTrack,
  type PlayerTrack,
} from '@/player';

/**
 * The player in the signed-in app: starts the audio engine once (audio from signed URLs of the
 * listener's rendition, see createAudioSource), records qualified listens
 * through the data layer's outbox (so offline plays count on reconnect), and gives the bar and
 * the L shortcut the like toggle.
 */
export function PlayerDock({ userId }: { userId: string }) {
  useEffect(() => {
    // Signed URLs of the best rendition this listener's plan allows, cached per track.
    const stopPlayer = startPlayer({ currentUserId: () => userId, sourceOf: createAudioSource() });
    const stopListens = onListenQualified((listen) => {
      if (!listen.listenerId) return;
      getRepositories()
        .history.recordListen(listen.trackId)
        .catch((error: unknown) => console.warn('Failed to record listen', error));
    });
    return () => {
      stopListens();
      stopPlayer();
    };
  }, [userId]);

  const current = useCurrentTrack();
  const likedIds = useLikedTrackIds(userId);
  const liked = current ? likedIds.includes(current.id) : false;
  const toggleLike = useCallback(
    (track: PlayerTrack) => {
      const wasLiked = likedIds.includes(track.id);
      getRepositories()
        .likes.toggle(track.id)
        .catch(() => toast.error(wasLiked ? 'Failed to unlike track' : 'Failed to like track'));
    },
    [likedIds],
  );

  return (
    <>
      <PlayerBar liked={liked} onToggleLike={toggleLike} />
      <KeyboardShortcuts onToggleLike={toggleLike} />
    </>
  );
}
