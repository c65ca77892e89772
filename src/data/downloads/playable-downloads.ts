/**
 * What the player asks on every click (docs/offline.md, "Figures"): may this track play from the
 * downloads cache? Answered from memory, kept by a live query of the listener's downloaded rows
 * and the time of the last plan check. Reading Dexie on the click cost 23-173 ms: the database
 * is most likely busy then with the click's own writes and live queries.
 */
import { observe, type SoundloftDb } from '../db';
import { offlineAudioPath } from '@/lib/offline-audio';

/** How long downloads stay playable without a plan check online (Spotify's rule). */
export const OFFLINE_CHECK_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export const checkKey = (userId: string) => `downloads:checked:${userId}`;

/** Whether a check made at `checked` (ISO 8601) still lets downloads play at `now`. */
export const checkedWithin = (checked: unknown, now: number) =>
  typeof checked === 'string' && now - Date.parse(checked) < OFFLINE_CHECK_DAYS * DAY_MS;

export interface PlayableDownloads {
  readonly userId: string;
  /**
   * The path to play `trackId` from the cache, null when it may not (not downloaded, or the
   * last check is over 30 days old), undefined before the first answer of the live query.
   */
  source(trackId: string, now?: number): string | null | undefined;
  stop(): void;
}

export function watchPlayableDownloads(db: SoundloftDb, userId: string): PlayableDownloads {
  let state: { done: ReadonlySet<string>; checkedAt: unknown } | null = null;
  const stop = observe(
    async () => ({
      keys: await db.downloads.where('[userId+state]').equals([userId, 'done']).primaryKeys(),
      checkedAt: (await db.meta.get(checkKey(userId)))?.value,
    }),
    ({ keys, checkedAt }) => {
      state = { done: new Set(keys.map(([, trackId]) => trackId)), checkedAt };
    },
  );
  return {
    userId,
    source(trackId, now = Date.now()) {
      if (!state) return undefined;
      if (!state.done.has(trackId) || !checkedWithin(state.checkedAt, now)) return null;
      return offlineAudioPath(userId, trackId);
    },
    stop,
  };
}
