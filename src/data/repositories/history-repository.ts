/**
 * Listens (spec 4): recorded once per track per session; the uploader's own plays count
 * nothing. Queued as increment_track_plays (which also writes listening_history) with the time
 * of the listen, so offline plays are counted on reconnect.
 */
import { requireUser, write, type RepositoryDeps } from './context';

export function createHistoryRepository(deps: RepositoryDeps, sessionId = crypto.randomUUID()) {
  const recorded = new Set<string>();
  return {
    /** Resolves to whether a listen was queued. */
    async recordListen(trackId: string): Promise<boolean> {
      const userId = requireUser(deps);
      const onceKey = `${userId}:${trackId}`;
      if (recorded.has(onceKey)) return false;
      const track = await deps.db.tracks.get(trackId);
      if (track?.uploadedBy === userId) return false;
      recorded.add(onceKey);
      await write(deps, ['history'], (queue) =>
        queue({
          userId,
          op: 'play.record',
          entity: 'play',
          key: trackId,
          payload: {
            track_id: trackId,
            session_id: sessionId,
            played_at: new Date().toISOString(),
          },
        }),
      );
      return true;
    },
  };
}
