/**
 * The artist studio's server calls (issue 14; /work/wt/upload-contract.md): the audio goes up as
 * a resumable TUS upload to Storage's `/storage/v1/upload/resumable` exactly as Supabase documents
 * it for tus-js-client, the cover through storage-js, then the track row is inserted and its
 * processing status read until the server is done. tus-js-client loads on first use, so no other
 * page downloads it.
 */
import type { DetailedError, Upload } from 'tus-js-client';
import type { Database } from './database.types';
import { getSupabase } from './client';
import { loadBackendConfig } from './config';
import { objectNameFor, publicObjectName } from './storage-paths';

/** Supabase Storage takes resumable uploads in chunks of exactly 6 MB. */
export const TUS_CHUNK_SIZE = 6 * 1024 * 1024;
export const TUS_RETRY_DELAYS = [0, 3000, 5000, 10000, 20000];

export class UploadError extends Error {
  /** The HTTP status Storage answered (0 = no answer). */
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'UploadError';
    this.status = status;
  }
}

export interface ResumableUploadOptions {
  /** `${SUPABASE_URL}/storage/v1/upload/resumable` */
  endpoint: string;
  anonKey: string;
  accessToken: string;
  file: Blob & { name?: string };
  objectName: string;
  contentType: string;
  /** Bytes the server has acknowledged or that are on their way, and the file's size. */
  onProgress?: (sent: number, total: number) => void;
  /** The connection dropped and tus retries (true), or bytes flow again (false). */
  onReconnecting?: (reconnecting: boolean) => void;
  signal?: AbortSignal;
  /** Tests: shorter waits between retries, smaller chunks (jsdom's XHR is slow with 6 MB). */
  retryDelays?: number[];
  chunkSize?: number;
}

/** Storage's error body `{ statusCode, error, message }`, or the raw text. */
export function storageMessage(body: string | undefined): string | null {
  if (!body) return null;
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
    if (typeof parsed.error === 'string' && parsed.error) return parsed.error;
  } catch {
    // Not JSON: a plain text answer.
  }
  return body.trim().slice(0, 300) || null;
}

function toUploadError(error: Error | DetailedError): UploadError {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  const status = response?.getStatus() ?? 0;
  const message = storageMessage(response?.getBody()) ?? 'Failed to upload file';
  return new UploadError(message, status);
}

/** tus-js-client retries what a dropped connection or a busy server broke; never a refusal. */
export function shouldRetryStatus(status: number): boolean {
  return status < 400 || status >= 500 || status === 409 || status === 423;
}

/** Runs one resumable upload to the end (or its refusal, or the abort signal). */
export async function uploadResumable(options: ResumableUploadOptions): Promise<void> {
  const tus = await import('tus-js-client');
  return new Promise<void>((resolve, reject) => {
    let reconnecting = false;
    const setReconnecting = (value: boolean) => {
      if (reconnecting === value) return;
      reconnecting = value;
      options.onReconnecting?.(value);
    };
    const upload: Upload = new tus.Upload(options.file, {
      endpoint: options.endpoint,
      retryDelays: options.retryDelays ?? TUS_RETRY_DELAYS,
      headers: {
        authorization: `Bearer ${options.accessToken}`,
        apikey: options.anonKey,
        'x-upsert': 'false',
      },
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      metadata: {
        bucketName: 'tracks',
        objectName: options.objectName,
        contentType: options.contentType,
        cacheControl: '3600',
      },
      chunkSize: options.chunkSize ?? TUS_CHUNK_SIZE,
      onShouldRetry: (error, _attempt) => {
        const retry = shouldRetryStatus(error.originalResponse?.getStatus() ?? 0);
        if (retry) setReconnecting(true);
        return retry;
      },
      onProgress: (sent, total) => options.onProgress?.(sent, total),
      onChunkComplete: () => setReconnecting(false),
      onSuccess: () => {
        setReconnecting(false);
        resolve();
      },
      onError: (error) => reject(toUploadError(error)),
    });
    options.signal?.addEventListener(
      'abort',
      () => {
        void upload.abort(true).catch(() => undefined);
        reject(new DOMException('The upload was cancelled', 'AbortError'));
      },
      { once: true },
    );
    upload.start();
  });
}

async function accessToken(): Promise<string> {
  const client = await getSupabase();
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Error('Auth session missing!');
  return token;
}

export interface AudioUploadCallbacks {
  onProgress?: (sent: number, total: number) => void;
  onReconnecting?: (reconnecting: boolean) => void;
  signal?: AbortSignal;
}

/** Uploads the audio into `tracks/{userId}/{timestamp}_{name}`; resolves to the object name. */
export async function uploadTrackAudio(
  userId: string,
  file: File,
  contentType: string,
  callbacks: AudioUploadCallbacks = {},
): Promise<string> {
  const [config, token] = await Promise.all([loadBackendConfig(), accessToken()]);
  const objectName = objectNameFor(userId, file.name);
  const base = config.url.endsWith('/') ? config.url : `${config.url}/`;
  await uploadResumable({
    endpoint: new URL('storage/v1/upload/resumable', base).href,
    anonKey: config.anonKey,
    accessToken: token,
    file,
    objectName,
    contentType,
    ...callbacks,
  });
  return objectName;
}

/** A cover into `covers/{userId}/{timestamp}_{name}`; resolves to its public URL. */
export async function uploadCoverImage(userId: string, file: Blob, name: string): Promise<string> {
  const bucket = (await (await getSupabase()).storage()).from('covers');
  const path = objectNameFor(userId, name);
  const { error } = await bucket.upload(path, file, {
    cacheControl: '3600',
    upsert: false,
    contentType: file.type,
  });
  if (error) throw new Error(error.message || 'Failed to upload file');
  return bucket.getPublicUrl(path).data.publicUrl;
}

type TrackInsert = Database['public']['Tables']['tracks']['Insert'];

export interface NewTrack {
  id: string;
  title: string;
  artist: string;
  album: string | null;
  genre: string | null;
  audioUrl: string;
  coverImage: string | null;
  uploadedBy: string;
}

/** Inserts the row; the server measures the duration and starts processing. */
export async function insertTrack(track: NewTrack): Promise<void> {
  const client = await getSupabase();
  const row = {
    id: track.id,
    title: track.title,
    artist: track.artist,
    album: track.album,
    genre: track.genre,
    audio_url: track.audioUrl,
    cover_image: track.coverImage,
    uploaded_by: track.uploadedBy,
  } as TrackInsert;
  const { error, status } = await client.from('tracks').insert(row);
  // The status says whether the server refused the row (4xx) or was not reached (0).
  if (error) throw new UploadError(error.message || 'Failed to save track information', status);
}

/** Is the caller at their plan's monthly upload limit? (The rule Storage and the insert apply.) */
export async function callerAtUploadLimit(): Promise<boolean> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('caller_at_upload_limit');
  if (error) throw new Error(error.message || 'Request failed');
  return data === true;
}

/**
 * Removes the files of an upload whose track was refused: the audio and the cover it sent.
 * Storage lets the owner delete what is in their folder; whatever fails here the server sweeps.
 */
export async function removeUploadedFiles(
  objectName: string,
  coverUrl: string | null,
): Promise<void> {
  const storage = await (await getSupabase()).storage();
  const cover = coverUrl ? publicObjectName(coverUrl, 'covers') : null;
  await Promise.allSettled([
    storage.from('tracks').remove([objectName]),
    cover ? storage.from('covers').remove([cover]) : null,
  ]);
}

export interface TrackStatusRow {
  status: string;
  processing_stage: string | null;
  processing_progress: number | null;
  status_reason: string | null;
}

const STATUS_COLUMNS = 'status,processing_stage,processing_progress,status_reason';

/** The processing columns of one track (null: not visible, e.g. deleted). */
export async function readTrackStatus(id: string): Promise<TrackStatusRow | null> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('tracks')
    .select(STATUS_COLUMNS as '*')
    .eq('id', id)
    .maybeSingle();
  if (error) throw new Error(error.message || 'Request failed');
  return data as unknown as TrackStatusRow | null;
}

/** Requeues a failed track (uploader or admin). */
export async function retryTrackProcessing(id: string): Promise<void> {
  const client = await getSupabase();
  const rpc = client.rpc as unknown as (
    name: string,
    args: Record<string, unknown>,
  ) => PromiseLike<{ error: { message: string } | null }>;
  const { error } = await rpc('retry_track_processing', { track_id: id });
  if (error) throw new Error(error.message || 'Failed to retry processing');
}

export interface TrackDetailsChange {
  title?: string;
  artist?: string;
  album?: string | null;
  genre?: string | null;
  cover_image?: string | null;
}

export async function updateTrackDetails(id: string, changes: TrackDetailsChange): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.from('tracks').update(changes).eq('id', id);
  if (error) throw new Error(error.message || 'Failed to save track information');
}

/** Deletes the row; the server removes its files (audio, renditions, waveform, cover). */
export async function deleteTrackRow(id: string): Promise<void> {
  const client = await getSupabase();
  const { error, count } = await client.from('tracks').delete({ count: 'exact' }).eq('id', id);
  if (error) throw new Error(error.message || 'Failed to delete track');
  if (count === 0) throw new Error('Failed to delete track');
}
