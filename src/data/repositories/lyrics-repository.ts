/**
 * Lyrics (spec 4, 5): save drops blank lines, trims text, turns non-finite timestamps into 0,
 * sorts by timestamp and needs at least one line. Only the track's uploader edits (the server
 * decides; the mirror checks what it knows).
 */
import type { LyricLine, Lyrics } from '../db';
import { requireUser, write, type RepositoryDeps } from './context';

export const NO_LYRICS_MESSAGE = 'Add at least one lyric line before saving.';

/** The lines a save keeps, in timestamp order (stable for equal timestamps). */
export function normaliseLyricLines(lines: readonly Partial<LyricLine>[]): LyricLine[] {
  return lines
    .map((line, index) => {
      const timestamp = Number(line.timestamp);
      const out: LyricLine = {
        id: line.id || `line-${index}-${crypto.randomUUID().slice(0, 8)}`,
        text: (line.text ?? '').trim(),
        timestamp: Number.isFinite(timestamp) && timestamp > 0 ? timestamp : 0,
      };
      if (line.annotation?.trim()) out.annotation = line.annotation.trim();
      return out;
    })
    .filter((line) => line.text !== '')
    .map((line, index) => ({ line, index }))
    .sort((a, b) => a.line.timestamp - b.line.timestamp || a.index - b.index)
    .map(({ line }) => line);
}

export function createLyricsRepository(deps: RepositoryDeps) {
  const { db } = deps;
  return {
    async save(
      trackId: string,
      lines: readonly Partial<LyricLine>[],
      options: { language?: string; isSynced?: boolean } = {},
    ): Promise<Lyrics> {
      if (!trackId) throw new Error('Track ID is required to save lyrics');
      const userId = requireUser(deps);
      const kept = normaliseLyricLines(lines);
      if (!kept.length) throw new Error(NO_LYRICS_MESSAGE);
      return write(deps, ['lyrics', 'tracks'], async (queue) => {
        const track = await db.tracks.get(trackId);
        if (track && track.uploadedBy !== userId) throw new Error('Failed to save lyrics');
        const previous = await db.lyrics.get(trackId);
        const lyrics: Lyrics = {
          trackId,
          lines: kept,
          language: options.language ?? previous?.language ?? 'en',
          isSynced: options.isSynced ?? true,
          lastEditedBy: userId,
          updatedAt: new Date().toISOString(),
        };
        await db.lyrics.put(lyrics);
        await queue({
          userId,
          op: 'lyrics.save',
          entity: 'lyrics',
          key: trackId,
          payload: {
            track_id: trackId,
            lyrics: kept,
            language: lyrics.language,
            is_synced: lyrics.isSynced,
          },
        });
        return lyrics;
      });
    },
  };
}
