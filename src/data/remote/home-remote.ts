/**
 * Server reads of the home screen that the mirror does not hold: recommendations (the
 * `get-recommendations` function) and friends activity (other users' listening history, readable
 * by their followers through RLS). Both throw on failure; the hooks log and show an empty state.
 */
import { isoTime, toTrack, type Track, type TrackRow } from '../db';
import { getSupabase, type SoundloftClient } from './client';

/** One listen of a followed user, with who and what (spec 7: joined profile and track). */
export interface FriendActivity {
  id: string;
  listenedAt: string;
  user: { id: string; name: string; avatar: string | null };
  track: Track;
}

/** The fields of a track the function reads (it accepts the app's camelCase tracks as they are). */
export type RecommendationSeed = Pick<Track, 'id' | 'title' | 'artist' | 'genre'>;

/** POST get-recommendations {recentlyPlayed} → the response's `recommendations`. */
export async function fetchRecommendations(
  recentlyPlayed: readonly RecommendationSeed[],
  getClient: () => Promise<SoundloftClient> = getSupabase,
): Promise<Track[]> {
  const client = await getClient();
  const { data, error } = await client.functions.invoke<{ recommendations?: TrackRow[] }>(
    'get-recommendations',
    {
      body: {
        recentlyPlayed: recentlyPlayed.map(({ id, title, artist, genre }) => ({
          id,
          title,
          artist,
          genre,
        })),
      },
    },
  );
  if (error) throw error instanceof Error ? error : new Error(String(error));
  const rows = data?.recommendations;
  if (!Array.isArray(rows)) throw new Error('get-recommendations: no recommendations in response');
  return rows.map(toTrack);
}

const ACTIVITY_SELECT = 'id, listened_at, listener:profiles(id, name, avatar_url), track:tracks(*)';

/** The followed users' latest listens, newest first (spec 7: limit 10). */
export async function fetchFriendsActivity(
  userIds: readonly string[],
  limit = 10,
  getClient: () => Promise<SoundloftClient> = getSupabase,
): Promise<FriendActivity[]> {
  if (userIds.length === 0) return [];
  const client = await getClient();
  const { data, error } = await client
    .from('listening_history')
    .select(ACTIVITY_SELECT)
    .in('user_id', [...userIds])
    .order('listened_at', { ascending: false })
    .limit(limit);
  if (error) throw new Error(error.message);
  const items: FriendActivity[] = [];
  for (const row of data ?? []) {
    // A listen whose track or profile is gone (deleted since) is skipped.
    if (!row.track || !row.listener) continue;
    items.push({
      id: row.id,
      listenedAt: isoTime(row.listened_at),
      user: { id: row.listener.id, name: row.listener.name, avatar: row.listener.avatar_url },
      track: toTrack(row.track),
    });
  }
  return items;
}
