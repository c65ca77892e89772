/**
 * Offline playback (docs/offline.md): a source that cannot play offline (the track is not
 * downloaded) rejects with this error, and the engine skips the track with its message instead
 * of a load error.
 */
export class NotDownloadedError extends Error {
  override name = 'NotDownloadedError';
  constructor(title = '') {
    super(`"${title}" is not downloaded.`);
  }
}

export const notDownloadedSkipMessage = (title: string) =>
  `You're offline and "${title}" is not downloaded. Skipped to the next track.`;
export const NOTHING_DOWNLOADED_MESSAGE =
  "You're offline and none of the tracks in the queue is downloaded.";
