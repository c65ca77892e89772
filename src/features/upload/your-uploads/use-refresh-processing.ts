import { useEffect } from 'react';
import { type Track } from '@/data';

export const PROCESSING_REFRESH_MS = 2000;

/** Re-reads the uploader's tracks still processing, so their stage moves on screen. */
export function useRefreshProcessing(tracks: readonly Track[] | undefined): void {
  const ids = (tracks ?? [])
    .filter((t) => t.status === 'processing')
    .map((t) => t.id)
    .join(',');
  useEffect(() => {
    if (!ids) return;
    const list = ids.split(',');
    const timer = setInterval(() => {
      // Loaded only while a track is processing (most visits to /library have none).
      void import('@/data/repositories/track-uploads').then(({ refreshTrack }) => {
        for (const id of list) void refreshTrack(id).catch(() => undefined);
      });
    }, PROCESSING_REFRESH_MS);
    return () => clearInterval(timer);
  }, [ids]);
}
