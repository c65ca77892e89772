import { useMirrorLoading } from '@/data';

/**
 * A library list, or undefined while it is loading: its live query has not answered yet, or it
 * is empty while this device's first download of the mirror is still running. The tabs show a
 * loader meanwhile, never an empty state that may be wrong.
 */
export function useLoadedList<T>(list: readonly T[] | undefined): readonly T[] | undefined {
  const mirrorLoading = useMirrorLoading();
  if (list === undefined || (list.length === 0 && mirrorLoading)) return undefined;
  return list;
}
