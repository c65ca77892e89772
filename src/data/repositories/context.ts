/**
 * What every repository needs: the database, who is signed in, and whom to tell about a write.
 * Every write runs in ONE Dexie transaction over the mirror tables and the outbox
 * (CONVENTIONS habit 3); a storage quota failure is reported (db health), then rethrown.
 */
import { reportQuota, type SoundloftDb } from '../db';
import { enqueue, type NewEntry } from '../sync/outbox';

export interface RepositoryDeps {
  db: SoundloftDb;
  currentUserId: () => string | null;
  /** Called after a committed write (the app nudges the sync engine). */
  onWrite?: () => void;
}

/** Spec 5: file upload, track save, playlist and like actions need a session. */
export function requireUser(deps: RepositoryDeps): string {
  const userId = deps.currentUserId();
  if (!userId) throw new Error('Auth session missing!');
  return userId;
}

type TableName = 'tracks' | 'likes' | 'playlists' | 'lyrics' | 'profiles' | 'follows' | 'history';

export async function write<T>(
  deps: RepositoryDeps,
  tables: TableName[],
  fn: (
    queue: (entry: Omit<NewEntry, 'userId'> & { userId: string }) => Promise<void>,
  ) => Promise<T>,
): Promise<T> {
  const { db } = deps;
  let queued = false;
  try {
    const result = await db.transaction('rw', [...tables.map((t) => db.table(t)), db.outbox], () =>
      fn(async (entry) => {
        queued = true;
        await enqueue(db, entry);
      }),
    );
    if (queued) deps.onWrite?.();
    return result;
  } catch (error) {
    reportQuota(error);
    throw error;
  }
}
