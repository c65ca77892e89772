/**
 * What the download manager asks the server (docs/offline.md): whether the listener's plan
 * includes offline listening (`plan_allows_offline`, the one place that decides it), and a
 * signed URL of the file to download. The storage policies sign only what the plan allows, so a
 * free listener is refused the lossless file whatever the app asks for.
 */
import { getSupabase } from './client';
import { signBestAudio, type AudioSourceTrack, type SignedAudio } from './audio-remote';

/** The listener's choice of download quality, within what the plan allows. */
export type DownloadQuality = 'high' | 'lossless';

export async function planAllowsOffline(userId: string): Promise<boolean> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('plan_allows_offline', { p_user: userId });
  if (error) throw new Error(error.message);
  return data === true;
}

/** Signs the file to download: the best the plan allows, at most `quality`. Short-lived. */
export function signDownload(
  track: AudioSourceTrack,
  quality: DownloadQuality,
): Promise<SignedAudio> {
  return signBestAudio(track, undefined, 10 * 60, (candidate) =>
    quality === 'lossless' ? true : candidate.quality !== 'lossless',
  );
}
