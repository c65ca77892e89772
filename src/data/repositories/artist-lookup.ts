/**
 * Spec 7 'artist lookup by name, returning name, avatar, bio'. An artist is a name on tracks
 * (tracks.artist); their profile is the account that uploaded those tracks (the most frequent
 * uploader when several did). A name with no tracks falls back to a profile of exactly that
 * name (spec 7: profiles select by name), which shows an artist page with no tracks yet.
 *
 * Loading: the mirror may not hold the catalogue yet (first sign-in on a device, a new upload
 * not pulled yet), so an empty answer counts only once the mirror is ready (useMirrorReady):
 * no 'Artist Not Found' flash, no empty artist page while the catalogue loads.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import { useSessionUserId } from '../auth/use-auth';
import { getDb, type Profile, type Track } from '../db';
import { fetchProfileIdByName } from '../remote/profile-remote';
import type { SyncStatus } from '../sync';
import { useSyncStatusSelector } from '../sync/app-sync';
import { readCheckpoint } from '../sync/pull';
import { useProfile } from './hooks';
import { tracksByArtist } from './queries';

export interface ArtistLookup {
  status: 'loading' | 'found' | 'missing';
  /** The artist's tracks, newest first. */
  tracks: Track[];
  /** The artist's profile (avatar, bio, followers), once known. */
  profile: Profile | null;
  profileId: string | null;
}

export function mostFrequentUploader(tracks: readonly Track[]): string | null {
  const counts = new Map<string, number>();
  let best: string | null = null;
  let bestCount = 0;
  for (const t of tracks) {
    const n = (counts.get(t.uploadedBy) ?? 0) + 1;
    counts.set(t.uploadedBy, n);
    if (n > bestCount) {
      best = t.uploadedBy;
      bestCount = n;
    }
  }
  return best;
}

/**
 * True once the mirror can be trusted to say 'not there': the catalogue was fully loaded for
 * this user before (a tracks checkpoint exists; later changes arrive live), this session's
 * first pull finished, a pull failed, or the device is offline.
 */
export function useMirrorReady(): boolean {
  const settled = useSyncStatusSelector(mirrorSettled);
  const userId = useSessionUserId();
  const loadedBefore = useLiveQuery(
    async () => (userId ? (await readCheckpoint(getDb(), userId, 'tracks')) !== null : false),
    [userId],
  );
  return loadedBefore === true || settled;
}

const mirrorSettled = (status: SyncStatus) =>
  status.lastPulledAt !== null || status.lastError !== null || status.phase === 'offline';

export function useArtist(name: string): ArtistLookup {
  const tracks = useLiveQuery(
    () => tracksByArtist(getDb(), name).catch(() => [] as Track[]),
    [name],
  );
  const ready = useMirrorReady();
  const uploaderId = useMemo(() => (tracks ? mostFrequentUploader(tracks) : null), [tracks]);
  const [byName, setByName] = useState<{ name: string; id: string | null } | null>(null);
  const needsNameLookup = tracks !== undefined && tracks.length === 0 && ready;

  useEffect(() => {
    if (!needsNameLookup) return;
    let live = true;
    fetchProfileIdByName(name)
      .then((id) => live && setByName({ name, id }))
      .catch(() => live && setByName({ name, id: null }));
    return () => {
      live = false;
    };
  }, [name, needsNameLookup]);

  const nameId = byName?.name === name ? byName.id : undefined;
  const profileId = uploaderId ?? nameId ?? null;
  const profile = useProfile(profileId);

  let status: ArtistLookup['status'];
  if (tracks === undefined) status = 'loading';
  else if (tracks.length > 0) status = 'found';
  else if (!ready || nameId === undefined) status = 'loading';
  else status = nameId ? 'found' : 'missing';

  return { status, tracks: tracks ?? [], profile, profileId };
}
