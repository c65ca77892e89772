/** Likes (spec 4: liking an already liked track removes the like) and follows (toggle). */
import { requireUser, write, type RepositoryDeps } from './context';

export function createLikesRepository(deps: RepositoryDeps) {
  return {
    /** likeTrack: toggles; resolves to whether the track is now liked. */
    async toggle(trackId: string): Promise<boolean> {
      const userId = requireUser(deps);
      const { db } = deps;
      return write(deps, ['likes'], async (queue) => {
        const key = `${userId}:${trackId}`;
        const existing = await db.likes.get([userId, trackId]);
        if (existing) {
          await db.likes.delete([userId, trackId]);
          await queue({
            userId,
            op: 'like.remove',
            entity: 'like',
            key,
            payload: { track_id: trackId },
          });
          return false;
        }
        const id = crypto.randomUUID();
        await db.likes.put({ userId, trackId, id, createdAt: new Date().toISOString() });
        await queue({
          userId,
          op: 'like.add',
          entity: 'like',
          key,
          payload: { id, track_id: trackId },
        });
        return true;
      });
    },
  };
}

export function createFollowsRepository(deps: RepositoryDeps) {
  return {
    /** Follow / Following toggle; resolves to whether the user is now followed. */
    async toggle(followingId: string): Promise<boolean> {
      const userId = requireUser(deps);
      if (followingId === userId) throw new Error('You cannot follow yourself');
      const { db } = deps;
      return write(deps, ['follows'], async (queue) => {
        const key = `${userId}:${followingId}`;
        const payload = { following_id: followingId };
        if (await db.follows.get([userId, followingId])) {
          await db.follows.delete([userId, followingId]);
          await queue({ userId, op: 'follow.remove', entity: 'follow', key, payload });
          return false;
        }
        await db.follows.put({
          followerId: userId,
          followingId,
          createdAt: new Date().toISOString(),
        });
        await queue({ userId, op: 'follow.add', entity: 'follow', key, payload });
        return true;
      });
    },
  };
}
