/**
 * Where downloaded audio lives (docs/offline.md): one Cache Storage cache that the service worker
 * serves from and the download manager writes to. Its name is not a Workbox precache name, so
 * the shell's precache updates (cleanupOutdatedCaches) never delete it. Each file is keyed by a
 * stable same-origin path naming its listener and track, never by the signed URL it came from
 * (that URL carries a token and expires).
 */
export const DOWNLOADS_CACHE = 'soundloft-downloads-v1';

/** The path prefix the service worker answers from the downloads cache. */
export const OFFLINE_AUDIO_PREFIX = '/offline-audio/';

/** The cache key (and the URL the player plays) of one listener's downloaded track. */
export function offlineAudioPath(userId: string, trackId: string): string {
  return `${OFFLINE_AUDIO_PREFIX}${encodeURIComponent(userId)}/${encodeURIComponent(trackId)}`;
}

/** The listener and track an offline audio path names, or null. */
export function parseOfflineAudioPath(
  pathname: string,
): { userId: string; trackId: string } | null {
  if (!pathname.startsWith(OFFLINE_AUDIO_PREFIX)) return null;
  const parts = pathname.slice(OFFLINE_AUDIO_PREFIX.length).split('/');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  return { userId: decodeURIComponent(parts[0]), trackId: decodeURIComponent(parts[1]) };
}
