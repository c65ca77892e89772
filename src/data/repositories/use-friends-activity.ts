import { useEffect, useState } from 'react';
import { fetchFriendsActivity, type FriendActivity } from '../remote/home-remote';
import { watchListens } from '../sync/realtime-sync';
import { useFollowingIds } from './hooks';

export type { FriendActivity } from '../remote/home-remote';

export interface FriendsActivityState {
  /** True until the first answer for the current set of followed users. */
  loading: boolean;
  /** Newest first, at most 10 (spec 9); empty when nobody is followed or the read failed. */
  items: FriendActivity[];
}

const LIMIT = 10;

/**
 * Friends activity: the latest listens of the users `userId` follows (followed ids from the
 * mirror, listens from the server, where RLS lets a follower read them). Errors are only logged
 * (spec 8) and leave the list empty. Re-read when the followed users change, and when one of
 * them plays a track (Realtime; docs/realtime.md).
 */
export function useFriendsActivity(userId: string | null | undefined): FriendsActivityState {
  const following = useFollowingIds(userId);
  const key = following ? [...following].sort().join(',') : null;
  const [result, setResult] = useState<{ key: string; items: FriendActivity[] } | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (key === null || key === '') return;
    return watchListens(key.split(','), () => setVersion((v) => v + 1));
  }, [key]);

  useEffect(() => {
    if (key === null || key === '') return;
    let cancelled = false;
    fetchFriendsActivity(key.split(','), LIMIT)
      .catch((error: unknown) => {
        console.error('Failed to fetch friends activity', error);
        return [];
      })
      .then((items) => {
        if (!cancelled) setResult({ key, items });
      });
    return () => {
      cancelled = true;
    };
  }, [key, version]);

  // useFollowingIds answers only once the mirror's first full pull has (or has failed).
  if (key === null) return { loading: true, items: [] };
  if (key === '') return { loading: false, items: [] };
  // While another set of followed users loads, keep showing the previous answer.
  if (!result) return { loading: true, items: [] };
  return { loading: false, items: result.items };
}
