import { getRepositories, NO_LYRICS_MESSAGE, normaliseLyricLines, type Lyrics } from '@/data';
import { hasTimings } from '@/lib/lyrics-time';
import { rowsToLines, type StudioRow } from './studio-rows';

export const TRACK_ID_REQUIRED = 'Track ID is required to save lyrics';
export const SAVE_FALLBACK = 'Something went wrong while saving.';

/** Messages of the data layer the studio shows as they are (spec 5, 8); others get the fallback. */
const SHOWN = new Set([
  NO_LYRICS_MESSAGE,
  TRACK_ID_REQUIRED,
  'Failed to save lyrics',
  'Auth session missing!',
  'Not authenticated',
]);

export function saveErrorMessage(error: unknown): string {
  return error instanceof Error && SHOWN.has(error.message) ? error.message : SAVE_FALLBACK;
}

/**
 * Saves through the data layer (mirror + outbox: works offline; the sync engine sends it and a
 * server rejection comes back as 'Failed to save lyrics'). Blank lines are dropped, text
 * trimmed, lines sorted by time; synced when any line has a time.
 */
export async function saveLyrics(trackId: string, rows: readonly StudioRow[]): Promise<Lyrics> {
  const lines = rowsToLines(rows);
  return getRepositories().lyrics.save(trackId, lines, {
    isSynced: hasTimings(normaliseLyricLines(lines)),
  });
}
