import type { SoundloftDb } from './schema';

/**
 * Whether a pull of every table has finished for `userId` on this device (docs/sync.md, "First
 * load"). Written once, after the first full pull's last table: an empty read of the mirror is
 * an answer ('No playlists yet.') only once this is set, or once that pull has failed.
 */
const filledKey = (userId: string) => `mirror-filled:${userId}`;

export async function isMirrorFilled(db: SoundloftDb, userId: string | null): Promise<boolean> {
  if (!userId) return false;
  return (await db.meta.get(filledKey(userId))) !== undefined;
}

/** Marks the mirror filled for `userId` (no write when it already is: live reads stay still). */
export async function markMirrorFilled(db: SoundloftDb, userId: string): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    if ((await db.meta.get(filledKey(userId))) !== undefined) return;
    await db.meta.put({ key: filledKey(userId), value: new Date().toISOString() });
  });
}
