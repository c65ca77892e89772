import type { IndexableType, Table } from 'dexie';
import { sameValue } from '@/lib/same-value';

/** A mirror table, for code outside db/ that passes one to these helpers. */
export type MirrorStore<T, K extends IndexableType, I = T> = Table<T, K, I>;

/**
 * Writes that leave the mirror as it is are not made (docs/sync.md, "Quiet pulls"). Dexie wakes
 * every live query that reads a key written or deleted, even when the value is the same, and each
 * woken query reads again and is compared on the main thread: an incremental pull re-reads its
 * overlap window (rows it already has) and the own profile and history every time. Run these in
 * the caller's transaction so the read and the write see the same rows.
 */

/** Puts the rows that differ from the stored ones (or are missing); returns how many. */
export async function putChanged<T extends I, K extends IndexableType, I>(
  table: Table<T, K, I>,
  rows: T[],
  keyOf: (row: T) => K,
): Promise<number> {
  if (!rows.length) return 0;
  const stored = await table.bulkGet(rows.map(keyOf));
  const changed = rows.filter((row, i) => !sameValue(row, stored[i]));
  if (changed.length) await table.bulkPut(changed);
  return changed.length;
}

/** Deletes the keys the table holds (a missing one is not deleted again); returns how many. */
export async function deleteExisting<T, K extends IndexableType, I>(
  table: Table<T, K, I>,
  keys: K[],
): Promise<number> {
  if (!keys.length) return 0;
  const stored = await table.bulkGet(keys);
  const present = keys.filter((_, i) => stored[i] !== undefined);
  if (present.length) await table.bulkDelete(present);
  return present.length;
}
