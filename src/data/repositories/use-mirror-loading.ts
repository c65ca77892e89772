import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncStatusSelector } from '../sync/app-sync';
import { mayStillFill, signedInMirrorFilled } from './hooks';

/**
 * True while a screen should show skeletons: this user's mirror has not had a full pull yet
 * (isMirrorFilled: the mark is written after the first pull's last table) and that pull may
 * still come (not failed, not offline). A mirror filled by an earlier visit (or by another tab's
 * sync) shows at once. Before, this answered 'loaded' as soon as one track was in the mirror or
 * the pull's status said done: the tables merged after the tracks, or a live read a moment behind
 * the status, showed their empty states ('No playlists yet.', '0 tracks found') for a moment.
 * Lists that tell 'empty' from 'loading' read the same mark with their rows (the `...OrLoading`
 * hooks); this hook is for what has no list of its own (counts, the plan). Re-renders only when
 * the answer changes.
 */
export function useMirrorLoading(): boolean {
  const filling = useSyncStatusSelector(mayStillFill);
  const filled = useLiveQuery(signedInMirrorFilled, []);
  if (filled === undefined) return filling;
  return !filled && filling;
}
