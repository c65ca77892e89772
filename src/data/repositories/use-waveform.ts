import { useCallback } from 'react';
import { fetchWaveform, type Waveform } from '../remote/waveform-remote';
import { useServerRead } from './use-server-read';

/**
 * The waveform peaks of a track: undefined while loading, null when there are none (no track,
 * not processed, not readable, or the read failed: the seek bar then stays a plain slider).
 */
export function useWaveform(trackId: string | null | undefined): Waveform | null | undefined {
  const read = useCallback(
    async () => ({ trackId, waveform: trackId ? await fetchWaveform(trackId) : null }),
    [trackId],
  );
  const { data, error } = useServerRead(read, trackId ?? null);
  if (!trackId || error) return null;
  // A reload keeps the last answer until the new one: never another track's peaks.
  return data?.trackId === trackId ? data.waveform : undefined;
}
