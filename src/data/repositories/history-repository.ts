/**
 * Listens (spec 4): recorded once per track per session; the uploader's own plays count
 * nothing. Queued as increment_track_plays (which also writes listening_history) with the time
 * of the listen, so offline plays are counted on reconnect.
 */
import { requireUser, write, type RepositoryDeps } from './context';

export function createHistoryRepository(deps: RepositoryDeps, sessionId = crypto.randomUUID()) {
  const recorded = new Set<string>();
  return {
    /** The session_id of this page session's online listens (record_play_source names it). */
    listenSession: sessionId,
    /**
     * Resolves to whether a listen was queued. A listen played from the downloads cache is an
     * offline play (`play.offline` → record_offline_play, docs/plays.md) with its device: the
     * server counts it against its record of the download, not against audio it served.
     */
    async recordListen(trackId: string, offline?: { deviceId: string }): Promise<boolean> {
      const userId = requireUser(deps);
      const onceKey = `${userId}:${trackId}`;
      if (recorded.has(onceKey)) return false;
      const track = await deps.db.tracks.get(trackId);
      if (track?.uploadedBy === userId) return false;
      recorded.add(onceKey);
      const playedAt = new Date().toISOString();
      await write(deps, ['history'], (queue) =>
        queue(
          offline
            ? {
                userId,
                op: 'play.offline',
                entity: 'play',
                key: trackId,
                payload: {
                  track_id: trackId,
                  played_at: playedAt,
                  session_id: `${sessionId}:${trackId}`,
                  device_id: offline.deviceId,
                },
              }
            : {
                userId,
                op: 'play.record',
                entity: 'play',
                key: trackId,
                payload: { track_id: trackId, session_id: sessionId, played_at: playedAt },
              },
        ),
      );
      return true;
    },
  };
}
