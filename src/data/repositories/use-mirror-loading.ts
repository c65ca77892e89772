import { useLiveQuery } from 'dexie-react-hooks';
import { getDb } from '../db';
import type { SyncStatus } from '../sync';
import { useSyncStatusSelector } from '../sync/app-sync';

/** The first pull of this session is still running (not failed, not offline). */
const firstPullRunning = (status: SyncStatus) =>
  status.lastPulledAt === null &&
  status.lastError === null &&
  (status.phase === 'idle' || status.phase === 'syncing');

/**
 * True while a screen should show skeletons: the mirror holds no track yet and the first pull of
 * this session is still running (not failed, not offline). A mirror filled by an earlier visit
 * (or by another tab's sync) shows at once; counts of the other tables fill in live as the first
 * pull lands them. Re-renders only when the answer changes.
 */
export function useMirrorLoading(): boolean {
  const pulling = useSyncStatusSelector(firstPullRunning);
  const hasTracks = useLiveQuery(
    () =>
      getDb()
        .tracks.count()
        .then((n) => n > 0)
        .catch(() => false),
    [],
  );
  if (hasTracks === undefined) return true;
  if (hasTracks) return false;
  return pulling;
}
