/**
 * Server reads and writes of the profile and artist screens that the mirror cannot answer:
 * counts over other people's rows (followers, following, playlists), the artist lookup by name
 * (spec 7: profiles select by name) and the avatar upload (spec 7: bucket avatars,
 * {userId}/{userId}-{timestamp}.{ext}, upsert, cache 3600).
 */
import { getSupabase } from './client';

export interface RemoteProfileCounts {
  /** Followers of the user, not counting `viewerId` (whose follow the mirror knows). */
  followersExceptViewer: number;
  following: number;
  playlists: number;
}

async function count(
  table: 'followers' | 'playlists',
  filter: (q: CountQuery) => CountQuery,
): Promise<number> {
  const client = await getSupabase();
  const base = client.from(table).select('*', { count: 'exact', head: true }) as unknown;
  const { count: n, error } = await filter(base as CountQuery);
  if (error) throw new Error(error.message || 'Request failed');
  return n ?? 0;
}

interface CountQuery extends PromiseLike<{
  count: number | null;
  error: { message: string } | null;
}> {
  eq(column: string, value: string): CountQuery;
  neq(column: string, value: string): CountQuery;
}

export async function fetchProfileCounts(
  userId: string,
  viewerId: string | null,
): Promise<RemoteProfileCounts> {
  const [followersExceptViewer, following, playlists] = await Promise.all([
    count('followers', (q) => {
      const byUser = q.eq('following_id', userId);
      return viewerId ? byUser.neq('follower_id', viewerId) : byUser;
    }),
    count('followers', (q) => q.eq('follower_id', userId)),
    count('playlists', (q) => q.eq('created_by', userId)),
  ]);
  return { followersExceptViewer, following, playlists };
}

/** The id of the profile with exactly this name (the oldest, if several share it), or null. */
export async function fetchProfileIdByName(name: string): Promise<string | null> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('profiles')
    .select('id')
    .eq('name', name)
    .order('created_at', { ascending: true })
    .limit(1);
  if (error) throw new Error(error.message || 'Request failed');
  return data[0]?.id ?? null;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/** Uploads the avatar and resolves to its public URL. */
export async function uploadAvatarFile(userId: string, file: Blob): Promise<string> {
  const ext = EXTENSIONS[file.type];
  if (!ext) throw new Error('Please select an image file.');
  const client = await getSupabase();
  const path = `${userId}/${userId}-${Date.now()}.${ext}`;
  const bucket = (await client.storage()).from('avatars');
  const { error } = await bucket.upload(path, file, {
    upsert: true,
    cacheControl: '3600',
    contentType: file.type,
  });
  if (error) throw new Error(error.message || 'Failed to upload new avatar.');
  return bucket.getPublicUrl(path).data.publicUrl;
}
