/**
 * The artist studio's writes (issue 14): upload a track, follow its processing, retry, edit and
 * delete it. These need the server at once (a file upload cannot wait in the outbox), so they
 * call it directly and then re-read the row into the mirror.
 */
import {
  callerAtUploadLimit,
  deleteTrackRow,
  insertTrack,
  readTrackStatus,
  removeUploadedFiles,
  retryTrackProcessing,
  updateTrackDetails,
  uploadCoverImage,
  uploadTrackAudio,
  type TrackDetailsChange,
  type TrackStatusRow,
} from '../remote/upload-remote';
import { audioUrlFor } from '../remote/storage-paths';
import { fetchOnDemand } from '../sync/app-sync';

export { UploadError, type TrackStatusRow } from '../remote/upload-remote';

export interface TrackDetailsInput {
  title: string;
  artist: string;
  album: string | null;
  genre: string | null;
}

export interface AudioUploadInput {
  userId: string;
  file: File;
  contentType: string;
  onProgress?: (sent: number, total: number) => void;
  onReconnecting?: (reconnecting: boolean) => void;
  signal?: AbortSignal;
}

/** Step 1: the audio, resumable. Resolves to its object name in the tracks bucket. */
export function uploadAudio(input: AudioUploadInput): Promise<string> {
  return uploadTrackAudio(input.userId, input.file, input.contentType, {
    onProgress: input.onProgress,
    onReconnecting: input.onReconnecting,
    signal: input.signal,
  });
}

/** Step 2: the optional cover. Resolves to its public URL. */
export function uploadCover(userId: string, file: File): Promise<string> {
  return uploadCoverImage(userId, file, file.name);
}

/** Step 3: the row (the server measures the duration and queues processing). */
export async function createTrack(input: {
  id: string;
  userId: string;
  objectName: string;
  coverUrl: string | null;
  details: TrackDetailsInput;
}): Promise<void> {
  await insertTrack({
    id: input.id,
    ...input.details,
    audioUrl: audioUrlFor(input.objectName),
    coverImage: input.coverUrl,
    uploadedBy: input.userId,
  });
  await Promise.allSettled([fetchOnDemand.track(input.id), fetchOnDemand.uploadLimits()]);
}

/**
 * After a refusal: is the artist at their monthly limit? (Storage refuses an upload beyond it
 * with its generic 403; the server's rule says why.) Refreshes the limits panel either way.
 */
export async function atUploadLimit(): Promise<boolean> {
  const [reached] = await Promise.all([
    callerAtUploadLimit().catch(() => false),
    fetchOnDemand.uploadLimits(),
  ]);
  return reached;
}

/** The files of an upload whose track was refused: removed now rather than swept later. */
export async function discardUpload(objectName: string, coverUrl: string | null): Promise<void> {
  await Promise.all([removeUploadedFiles(objectName, coverUrl), fetchOnDemand.uploadLimits()]);
}

export const PROCESSING_POLL_MS = 500;

/**
 * Reads the track's processing status every 500 ms (upload contract §3) until it is ready or
 * failed; `onStatus` sees every answer. Returns a function that stops it.
 */
export function watchProcessing(
  id: string,
  onStatus: (status: TrackStatusRow) => void,
  onError: (error: unknown) => void = () => undefined,
  intervalMs = PROCESSING_POLL_MS,
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const poll = async () => {
    try {
      const status = await readTrackStatus(id);
      if (stopped) return;
      if (status) onStatus(status);
      if (status && status.status !== 'processing') {
        void fetchOnDemand.track(id);
        return;
      }
    } catch (error) {
      if (stopped) return;
      onError(error);
    }
    timer = setTimeout(() => void poll(), intervalMs);
  };
  void poll();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

/** Re-reads a track into the mirror (Your Uploads follows processing with it). */
export const refreshTrack = (id: string): Promise<void> => fetchOnDemand.track(id);

export async function retryProcessing(id: string): Promise<void> {
  await retryTrackProcessing(id);
  await fetchOnDemand.track(id);
}

export async function editTrack(
  id: string,
  userId: string,
  details: TrackDetailsInput,
  cover: File | null | 'remove',
): Promise<void> {
  const changes: TrackDetailsChange = { ...details };
  if (cover === 'remove') changes.cover_image = null;
  else if (cover) changes.cover_image = await uploadCover(userId, cover);
  await updateTrackDetails(id, changes);
  await fetchOnDemand.track(id);
}

export async function deleteOwnTrack(id: string): Promise<void> {
  await deleteTrackRow(id);
  await fetchOnDemand.track(id);
}
