/**
 * The outbox: every local write appends one entry in the same Dexie transaction as the mirror
 * change (repositories call enqueue inside their transaction). Entries that cancel each other
 * before they are sent are collapsed here:
 * - like.add ⇄ like.remove and follow.add ⇄ follow.remove of the same row: both disappear;
 * - playlist.delete of a playlist whose create is still queued: every queued entry of it goes;
 * - playlist.update / profile.update / lyrics.save right after one of the same row (the tail of
 *   the user's queue): merged into it.
 * Entries already sent (inflight, or sent before and waiting for a retry) are never touched: the
 * server may have applied them.
 */
import type { OutboxEntry, OutboxOp, SoundloftDb } from '../db';

const INVERSE: Partial<Record<OutboxOp, OutboxOp>> = {
  'like.add': 'like.remove',
  'like.remove': 'like.add',
  'follow.add': 'follow.remove',
  'follow.remove': 'follow.add',
};

const MERGEABLE = new Set<OutboxOp>(['playlist.update', 'profile.update', 'lyrics.save']);

/** The key of a stored entry (Dexie fills seq on add). */
export function seqOf(entry: OutboxEntry): number {
  if (entry.seq === undefined) throw new Error('outbox entry without seq');
  return entry.seq;
}

export type NewEntry = Pick<OutboxEntry, 'op' | 'entity' | 'key' | 'payload' | 'userId'>;

export type EnqueueResult = 'appended' | 'cancelled' | 'merged';

/** Must run inside a 'rw' transaction that includes db.outbox. */
export async function enqueue(db: SoundloftDb, entry: NewEntry): Promise<EnqueueResult> {
  const sameRow = await db.outbox
    .where('[userId+entity+key]')
    .equals([entry.userId, entry.entity, entry.key])
    .sortBy('seq');
  const pending = sameRow.filter((e) => e.status === 'pending' && !e.sent);
  const last = pending.at(-1);

  const inverse = INVERSE[entry.op];
  if (inverse && last?.op === inverse) {
    await db.outbox.delete(seqOf(last));
    return 'cancelled';
  }
  if (entry.op === 'playlist.delete' && sameRow.length > 0) {
    const created = sameRow.some(
      (e) => e.op === 'playlist.create' && e.status === 'pending' && !e.sent,
    );
    if (created) {
      await db.outbox.bulkDelete(sameRow.map((e) => seqOf(e)));
      return 'cancelled';
    }
  }
  if (MERGEABLE.has(entry.op) && last && last === sameRow.at(-1)) {
    const tail = await db.outbox
      .where('[userId+seq]')
      .between([entry.userId, 0], [entry.userId, Infinity])
      .last();
    if (
      tail?.seq === last.seq &&
      (last.op === entry.op || (last.op === 'playlist.create' && entry.op === 'playlist.update'))
    ) {
      await db.outbox.update(seqOf(last), { payload: { ...last.payload, ...entry.payload } });
      return 'merged';
    }
  }
  await db.outbox.add({
    ...entry,
    mutationId: crypto.randomUUID(),
    createdAt: Date.now(),
    attempts: 0,
    nextAttemptAt: 0,
    status: 'pending',
  });
  return 'appended';
}

/** The user's queue in order (oldest first). */
export function userQueue(db: SoundloftDb, userId: string) {
  return db.outbox.where('[userId+seq]').between([userId, 0], [userId, Infinity]);
}

export async function pendingCount(db: SoundloftDb, userId: string): Promise<number> {
  return userQueue(db, userId).count();
}

/** Keys of the rows of one entity that have queued writes (the pull keeps those local). */
export async function pendingKeys(
  db: SoundloftDb,
  userId: string | null,
  entity: OutboxEntry['entity'],
): Promise<Set<string>> {
  if (!userId) return new Set();
  // The [userId+entity+key] index alone (no entry values read); an array sorts after every
  // string, so [userId, entity, []] bounds every key of this entity.
  const keys = await db.outbox
    .where('[userId+entity+key]')
    .between([userId, entity, ''], [userId, entity, []], true, false)
    .keys();
  return new Set(keys.map((k) => String((k as unknown[])[2])));
}

/** After a crash or reload: whatever was in flight is sent again (the server dedupes it). */
export async function resetInflight(db: SoundloftDb): Promise<void> {
  // false: the entry is not written back (Dexie puts every entry the callback accepts).
  await db.outbox.toCollection().modify((e) => {
    if (e.status !== 'inflight') return false;
    e.status = 'pending';
  });
}
