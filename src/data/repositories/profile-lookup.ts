/**
 * The profile screen's reads: a profile with a loading / found / missing state (spec 8 'Profile
 * not found.'), follower, following and playlist counts, and the avatar upload.
 *
 * Counts are optimistic: the server counts the followers WITHOUT the viewer, and the viewer's
 * own follow comes from the mirror, so a Follow click changes the count at once (even offline)
 * and a reload shows the same number once the follow is on the server.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { authStore } from '../auth/auth-store';
import { getDb, type Profile } from '../db';
import {
  fetchProfileCounts,
  uploadAvatarFile,
  type RemoteProfileCounts,
} from '../remote/profile-remote';
import { fetchOnDemand } from '../sync/app-sync';
import { useFollowingIds, usePlaylists } from './hooks';
import { profileOf } from './queries';

export interface ProfileLookup {
  status: 'loading' | 'found' | 'missing';
  profile: Profile | null;
}

export function useProfileLookup(id: string): ProfileLookup {
  const row = useLiveQuery(() => profileOf(getDb(), id).catch(() => null), [id]);
  const [fetched, setFetched] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetchOnDemand
      .profile(id)
      .catch((e: unknown) => console.warn('Profile not found.', e))
      .finally(() => live && setFetched(id));
    return () => {
      live = false;
    };
  }, [id]);
  if (row) return { status: 'found', profile: row };
  if (row === undefined || fetched !== id) return { status: 'loading', profile: null };
  return { status: 'missing', profile: null };
}

export interface ProfileCounts {
  /** null: not known (the server did not answer). */
  followers: number | null;
  following: number | null;
  playlists: number | null;
  /**
   * Whether the viewer follows this user (the mirror's answer, optimistic); undefined while the
   * viewer's follows are still being read.
   */
  isFollowing: boolean | undefined;
}

export function useProfileCounts(
  userId: string | null,
  viewerId: string | null,
  fallbackFollowers: number | null = null,
): ProfileCounts {
  const own = Boolean(userId) && userId === viewerId;
  const viewerFollowing = useFollowingIds(viewerId);
  const ownPlaylists = usePlaylists(own ? userId : null);
  const [remote, setRemote] = useState<{ key: string; counts: RemoteProfileCounts | null }>();
  const key = `${userId}:${viewerId}`;

  useEffect(() => {
    if (!userId) return;
    let live = true;
    fetchProfileCounts(userId, viewerId)
      .then((counts) => live && setRemote({ key, counts }))
      .catch(() => live && setRemote({ key, counts: null }));
    return () => {
      live = false;
    };
  }, [key, userId, viewerId]);

  const counts = remote?.key === key ? remote.counts : null;
  const isFollowing = own || !userId || !viewerId ? false : viewerFollowing?.includes(userId);
  return {
    followers:
      counts && isFollowing !== undefined
        ? counts.followersExceptViewer + (isFollowing ? 1 : 0)
        : fallbackFollowers,
    following: own ? (viewerFollowing?.length ?? null) : (counts?.following ?? null),
    playlists: own ? ownPlaylists.length : (counts?.playlists ?? null),
    isFollowing,
  };
}

/**
 * Uploads a new avatar for the signed-in user (png, jpeg or webp under 2 MB) and resolves to
 * its URL; save it with `profile.update({ avatar })`.
 */
export async function uploadAvatar(file: Blob): Promise<string> {
  const userId = authStore.getSnapshot().session?.user.id;
  if (!userId) throw new Error('Not authenticated');
  return uploadAvatarFile(userId, file);
}
