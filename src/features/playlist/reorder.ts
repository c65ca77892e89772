/** Pure helpers of playlist reordering (drag and keyboard). */

/** `list` with the item at `from` moved to `to` (indices clamped; a new array). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  if (from < 0 || from >= next.length) return next;
  const target = Math.max(0, Math.min(next.length - 1, to));
  const [item] = next.splice(from, 1) as [T];
  next.splice(target, 0, item);
  return next;
}

/** Items ordered by `order` (ids); items not named there keep their relative order, last. */
export function applyOrder<T extends { id: string }>(
  items: readonly T[],
  order: readonly string[],
): T[] {
  const rank = new Map(order.map((id, i) => [id, i]));
  return items
    .map((item, i) => ({ item, key: rank.get(item.id) ?? order.length + i }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.item);
}

/**
 * The index of the row under a pointer at `y`, from the rows' vertical extents in display order:
 * the first row whose bottom is below the pointer, else the last.
 */
export function rowIndexAt(y: number, rows: readonly { top: number; bottom: number }[]): number {
  const index = rows.findIndex((r) => y < r.bottom);
  return index === -1 ? Math.max(0, rows.length - 1) : index;
}

/** What a screen reader hears after a move. */
export const moveAnnouncement = (title: string, index: number, count: number) =>
  `Moved ${title} to position ${index + 1} of ${count}.`;

/**
 * Moves made here that the mirror has not shown yet. `behind` holds the live orders that mean
 * "not caught up": the one the first move started from, and each order written since. Quick
 * moves write one after another, and the mirror's live read can answer in between with an
 * order this list wrote itself; that is not a change from elsewhere, so the newest order stays
 * on screen (a keyboard move made then was computed from the older order and undid the one
 * before it: CI, session 13). Any other live order (another device) drops the moves shown here.
 */
export interface PendingOrder {
  order: string[];
  behind: string[];
}

/** The key of an order of track ids: what `liveKey` and `behind` hold, one string per order. */
export const keyOf = (ids: readonly string[]) => ids.join(',');

/** Whether the live order is one this list is still ahead of. */
export const isBehind = (pending: PendingOrder | null, liveKey: string): pending is PendingOrder =>
  pending !== null && pending.behind.includes(liveKey);

/** The pending state after a move to `order`, made while the mirror showed `liveKey`. */
export function afterMove(
  pending: PendingOrder | null,
  liveKey: string,
  order: string[],
): PendingOrder {
  return isBehind(pending, liveKey)
    ? { order, behind: [...pending.behind, keyOf(pending.order)] }
    : { order, behind: [liveKey] };
}
