import { useLiveQuery } from 'dexie-react-hooks';
import { getDb } from '../db';
import { useSyncStatus } from '../sync/app-sync';

/**
 * True while a screen should show skeletons: the mirror holds no track yet and the first pull of
 * this session is still running (not failed, not offline). A mirror filled by an earlier visit
 * (or by another tab's sync) shows at once; counts of the other tables fill in live as the first
 * pull lands them.
 */
export function useMirrorLoading(): boolean {
  const status = useSyncStatus();
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
  return (
    status.lastPulledAt === null &&
    status.lastError === null &&
    (status.phase === 'idle' || status.phase === 'syncing')
  );
}
