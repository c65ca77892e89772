import { startTransition, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { Track } from '@/data';
import { FIRST_ROWS, ROW_STEP } from '../explore-text';

const NONE: readonly Track[] = [];

export interface ProgressiveRows {
  /** The rows to render now (a prefix of an earlier or the current `tracks`). */
  rows: readonly Track[];
  /** `rows` lags behind `tracks`: the rest is being rendered in the background. */
  pending: boolean;
}

/**
 * The result rows, rendered off the critical path (docs/search.md). A new list renders as a
 * deferred update (interruptible and time-sliced), so typing and live-query updates never wait
 * for the table. A new search (`listKey`) first shows FIRST_ROWS rows, then ROW_STEP more per
 * transition, so no single commit mounts a hundred rows at once. Live updates of the same
 * search keep the rows already shown. Every row ends up in the DOM, so keyboard and screen-reader
 * users reach them all.
 */
export function useProgressiveRows(tracks: readonly Track[], listKey: string): ProgressiveRows {
  const deferred = useDeferredValue(tracks, NONE);
  const key = useDeferredValue(listKey);
  const [shown, setShown] = useState({ key, cap: FIRST_ROWS });
  let cap = shown.cap;
  if (shown.key !== key) {
    // A new search: start again from the first rows (state adjusted while rendering).
    cap = FIRST_ROWS;
    setShown({ key, cap });
  }
  const rows = useMemo(
    () => (deferred.length > cap ? deferred.slice(0, cap) : deferred),
    [deferred, cap],
  );
  const capped = rows.length < deferred.length;
  useEffect(() => {
    if (!capped) return;
    // Once these rows are on screen, add the next ones in a transition (input goes first).
    const timer = setTimeout(() =>
      startTransition(() =>
        setShown((s) => (s.key === key && s.cap === cap ? { key, cap: cap + ROW_STEP } : s)),
      ),
    );
    return () => clearTimeout(timer);
  }, [capped, key, cap]);
  return { rows, pending: capped || deferred !== tracks };
}
