import { Suspense, useCallback, useEffect } from 'react';
import { toast } from '@/components/toast';
import {
  createAudioSource,
  deviceId,
  downloadedSource,
  downloadedSourceNow,
  getRepositories,
  isUnreachable,
  useLikedTrackIds,
} from '@/data';
import { whenIdle } from '@/lib/when-idle';
import {
  KeyboardShortcuts,
  NotDownloadedError,
  onListenQualified,
  startPlayer,
  useCurrentTrack,
  type PlayerTrack,
} from '@/player';
import { lazyChunk } from '@/lib/lazy-chunk';
import { noteTrackStarted, sendPlaySource } from '@/data/play-source';
import { createAutoplaySource } from './autoplay-source';

// The bar shows only with a current track: a cold visit's first paint does without its code
// (Mantine's Slider, the stems controls); fetched when the page is idle, or at the first play.
const loadPlayerUi = () => import('@/player/ui');
const PlayerBar = lazyChunk(() => loadPlayerUi().then((m) => ({ default: m.PlayerBar })));

/**
 * The player in the signed-in app: starts the audio engine once (audio from signed URLs of the
 * listener's rendition, see createAudioSource), records qualified listens
 * through the data layer's outbox (so offline plays count on reconnect), and gives the bar and
 * the L shortcut the like toggle.
 */
export function PlayerDock({ userId }: { userId: string }) {
  useEffect(() => {
    // A downloaded track plays from the downloads cache (docs/offline.md), online too; otherwise
    // a signed URL of the best rendition this listener's plan allows, cached per track. Offline,
    // a track that is not downloaded is skipped with its message.
    const signed = createAudioSource();
    // Tracks last played from the downloads cache: their listens are offline plays.
    const fromCache = new Set<string>();
    const sourceOf = Object.assign(
      (track: PlayerTrack): string | Promise<string> => {
        // Known at once for a downloaded track: the sound starts in the click's own task.
        const now = downloadedSourceNow(userId, track.id);
        if (typeof now === 'string') {
          fromCache.add(track.id);
          return now;
        }
        return (async () => {
          const downloaded = now === null ? null : await downloadedSource(userId, track.id);
          if (downloaded) fromCache.add(track.id);
          else fromCache.delete(track.id);
          if (downloaded) return downloaded;
          if (!navigator.onLine) throw new NotDownloadedError(track.title);
          return signed(track).catch((error: unknown) => {
            // navigator.onLine can say online while nothing gets through (a reload offline).
            throw isUnreachable(error) ? new NotDownloadedError(track.title) : error;
          });
        })();
      },
      {
        // Lists on screen are signed ahead (prepareAudio), online only.
        prepare: (tracks: readonly PlayerTrack[]) => {
          if (navigator.onLine) signed.prepare(tracks);
        },
      },
    );
    const stopPlayer = startPlayer({
      currentUserId: () => userId,
      sourceOf,
      autoplaySource: createAutoplaySource(userId),
    });
    const stopListens = onListenQualified((listen) => {
      if (!listen.listenerId) return;
      const offline = fromCache.has(listen.trackId) ? { deviceId: deviceId() } : undefined;
      const history = getRepositories().history;
      history
        .recordListen(listen.trackId, offline)
        .then((queued) => {
          // Where an online listen came from (docs/insights.md); offline ones the server knows.
          if (queued && !offline) sendPlaySource(listen.trackId, history.listenSession);
        })
        .catch((error: unknown) => console.warn('Failed to record listen', error));
    });
    return () => {
      stopListens();
      stopPlayer();
    };
  }, [userId]);

  useEffect(() => whenIdle(() => void loadPlayerUi().catch(() => undefined)), []);

  const current = useCurrentTrack();
  const currentId = current?.id;
  useEffect(() => {
    if (currentId) noteTrackStarted(currentId);
  }, [currentId]);
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
      {current ? (
        <Suspense fallback={null}>
          <PlayerBar liked={liked} onToggleLike={toggleLike} />
        </Suspense>
      ) : null}
      <KeyboardShortcuts onToggleLike={toggleLike} />
    </>
  );
}
