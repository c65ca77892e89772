/**
 * What the download manager asks the server (docs/offline.md): whether the listener's plan
 * includes offline listening (`plan_allows_offline`, the one place that decides it), and a
 * signed URL of the file to download. The storage policies sign only what the plan allows, so a
 * free listener is refused the lossless file whatever the app asks for.
 */
import { getSupabase } from './client';
import {
  signBestAudio,
  type AudioSigner,
  type AudioSourceTrack,
  type SignedAudio,
} from './audio-remote';

/** The listener's choice of download quality, within what the plan allows. */
export type DownloadQuality = 'high' | 'lossless';

export async function planAllowsOffline(userId: string): Promise<boolean> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('plan_allows_offline', { p_user: userId });
  if (error) throw new Error(error.message);
  return data === true;
}

/**
 * Signs as a download for `deviceId` (docs/plays.md): `createSignedUrls(…, { download: true })`
 * and `&device=<id>` on the URL, so the server records the download (`track_downloads`) that
 * its offline play rule checks.
 */
function downloadSigner(deviceId: string): AudioSigner {
  return async (bucket, paths, expiresIn) => {
    const storage = await (await getSupabase()).storage();
    const { data, error } = await storage
      .from(bucket)
      .createSignedUrls(paths, expiresIn, { download: true });
    if (error) throw error;
    return paths.map((p) => {
      const url = data.find((d) => d.path === p && !d.error)?.signedUrl;
      return url ? `${url}&device=${encodeURIComponent(deviceId)}` : null;
    });
  };
}

/** Signs the file to download: the best the plan allows, at most `quality`. Short-lived. */
export function signDownload(
  track: AudioSourceTrack,
  quality: DownloadQuality,
  deviceId: string,
): Promise<SignedAudio> {
  return signBestAudio(track, downloadSigner(deviceId), 10 * 60, (candidate) =>
    quality === 'lossless' ? true : candidate.quality !== 'lossless',
  );
}

/**
 * The plan check of this device's downloads (`renew_track_downloads`): with offline in the plan
 * the server extends them 30 days, otherwise it deletes its record of them. Resolves to the
 * track ids the server still holds as downloaded on this device.
 */
export async function renewDownloads(deviceId: string): Promise<string[]> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('renew_track_downloads', { device_id: deviceId });
  if (error) throw new Error(error.message);
  return (data ?? []).map((row) => row.track_id);
}
