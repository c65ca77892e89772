/**
 * A track's waveform peaks (docs/upload.md): the `track_waveforms` row the processing stored,
 * in BBC audiowaveform's fields (`data` holds min, max pairs of 8-bit values). Readable wherever
 * the track is. A ready track's peaks never change, so each is asked for once per page load.
 */
import { getSupabase, type SoundloftClient } from './client';

export interface Waveform {
  /** min, max, min, max… in [-128, 127] (8 bits) or [-32768, 32767] (16 bits). */
  data: readonly number[];
  /** Pairs in `data`. */
  length: number;
  bits: 8 | 16;
}

const cache = new Map<string, Promise<Waveform | null>>();

function parse(row: { data: unknown; length: number; bits: number } | null): Waveform | null {
  if (!row || !Array.isArray(row.data)) return null;
  const data = row.data.filter((v): v is number => typeof v === 'number');
  if (data.length < 2 || data.length !== row.length * 2) return null;
  return { data, length: row.length, bits: row.bits === 16 ? 16 : 8 };
}

/** The peaks of a track; null when it has none (not processed, or not visible to the caller). */
export function fetchWaveform(
  trackId: string,
  getClient: () => Promise<SoundloftClient> = getSupabase,
): Promise<Waveform | null> {
  let pending = cache.get(trackId);
  if (!pending) {
    pending = (async () => {
      const client = await getClient();
      const { data, error } = await client
        .from('track_waveforms')
        .select('data,length,bits')
        .eq('track_id', trackId)
        .maybeSingle();
      if (error) throw new Error(error.message);
      return parse(data);
    })();
    cache.set(trackId, pending);
    // A failed read is asked again next time (offline now, online later).
    pending.catch(() => cache.delete(trackId));
  }
  return pending;
}

/** Forgets every cached waveform (tests; sign-out keeps them: peaks are not private). */
export function clearWaveformCache(): void {
  cache.clear();
}
