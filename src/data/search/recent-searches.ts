/**
 * Recent searches, per user, in the mirror's `meta` table (key `recentSearches:<userId>`;
 * local to this device, never synced): the newest first, at most 8, a repeat moves to the top.
 * Signed out, nothing is kept. docs/search.md, "Recent searches".
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import { useSessionUserId } from '../auth/use-auth';
import { getDb } from '../db';

export const RECENT_SEARCHES_MAX = 8;
const keyOf = (userId: string) => `recentSearches:${userId}`;

export async function readRecentSearches(userId: string): Promise<string[]> {
  const entry = await getDb().meta.get(keyOf(userId));
  return Array.isArray(entry?.value) ? (entry.value as string[]) : [];
}

export async function addRecentSearch(userId: string, text: string): Promise<void> {
  const q = text.trim();
  if (!q) return;
  const db = getDb();
  await db.transaction('rw', db.meta, async () => {
    const list = await readRecentSearches(userId);
    const next = [q, ...list.filter((x) => x.toLowerCase() !== q.toLowerCase())].slice(
      0,
      RECENT_SEARCHES_MAX,
    );
    await db.meta.put({ key: keyOf(userId), value: next });
  });
}

export async function clearRecentSearches(userId: string): Promise<void> {
  await getDb().meta.delete(keyOf(userId));
}

const NONE: readonly string[] = [];

export function useRecentSearches() {
  const userId = useSessionUserId();
  const list = useLiveQuery(
    () => (userId ? readRecentSearches(userId) : Promise.resolve([])),
    [userId],
  );
  const add = useCallback(
    (text: string) => (userId ? addRecentSearch(userId, text) : Promise.resolve()),
    [userId],
  );
  const clear = useCallback(
    () => (userId ? clearRecentSearches(userId) : Promise.resolve()),
    [userId],
  );
  return { recent: list ?? NONE, add, clear };
}
