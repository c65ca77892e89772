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

/**
 * Where the bytes of an unfinished download are kept, piece by piece (`<offset>` is the first
 * byte of the piece), so an interrupted download resumes with a Range request instead of
 * starting again. Not under OFFLINE_AUDIO_PREFIX: the service worker never plays a part.
 */
export const OFFLINE_AUDIO_PART_PREFIX = '/offline-audio-part/';

/** The folder of one listener's parts, or of one track's when `trackId` is given. */
export function offlineAudioPartFolder(userId: string, trackId?: string): string {
  const user = `${OFFLINE_AUDIO_PART_PREFIX}${encodeURIComponent(userId)}/`;
  return trackId === undefined ? user : `${user}${encodeURIComponent(trackId)}/`;
}
