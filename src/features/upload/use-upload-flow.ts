/**
 * The upload's progress (spec 4, issue 14), every figure real: bytes the TUS upload has sent,
 * 'Reconnecting…' while tus-js-client retries a dropped connection, then the server's processing
 * stages read from the track row. Success after the track is ready; a failure returns to the form
 * with the server's message (or 'Failed to upload track. Please try again.').
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  atUploadLimit,
  createTrack,
  discardUpload,
  uploadAudio,
  uploadCover,
  watchProcessing,
  UploadError,
  type TrackDetailsInput,
  type TrackStatusRow,
} from '@/data/repositories/track-uploads';
import { LIMIT_REACHED, UPLOAD_FAILED } from './upload-rules';

export type UploadPhase =
  | { kind: 'idle' }
  | { kind: 'uploading'; sent: number; total: number; reconnecting: boolean }
  | { kind: 'saving' }
  | { kind: 'processing'; stage: string | null; progress: number | null }
  | { kind: 'success'; trackId: string };

export interface UploadRequest {
  userId: string;
  audio: File;
  contentType: string;
  cover: File | null;
  details: TrackDetailsInput;
}

/** An upload whose audio reached Storage: a second Submit with the same file reuses it. */
interface Uploaded {
  file: File;
  objectName: string;
}

/** Storage refused the audio (403): at the monthly limit, say so in the spec's words. */
async function audioRefusal(error: unknown): Promise<unknown> {
  if (error instanceof UploadError && error.status === 403 && (await atUploadLimit()))
    return new Error(LIMIT_REACHED);
  return error;
}

/** The server answered and refused the row (not a dropped connection nor a server fault). */
const refusedRow = (error: unknown) =>
  error instanceof UploadError && error.status >= 400 && error.status < 500;

export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message.trim() : '';
  return message || UPLOAD_FAILED;
}

export function useUploadFlow() {
  const [phase, setPhase] = useState<UploadPhase>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const uploaded = useRef<Uploaded | null>(null);
  const abort = useRef<AbortController | null>(null);
  const stopWatching = useRef<(() => void) | null>(null);

  useEffect(
    () => () => {
      abort.current?.abort();
      stopWatching.current?.();
    },
    [],
  );

  const fail = useCallback((e: unknown) => {
    setError(errorMessage(e));
    setPhase({ kind: 'idle' });
  }, []);

  const follow = useCallback(
    (trackId: string) =>
      new Promise<void>((resolve) => {
        setPhase({ kind: 'processing', stage: 'queued', progress: null });
        const onStatus = (row: TrackStatusRow) => {
          if (row.status === 'ready') {
            setPhase({ kind: 'success', trackId });
            resolve();
          } else if (row.status === 'failed') {
            // The object was refused and removed by the server: the next try uploads again.
            uploaded.current = null;
            fail(new Error(row.status_reason ?? UPLOAD_FAILED));
            resolve();
          } else {
            setPhase({
              kind: 'processing',
              stage: row.processing_stage,
              progress: row.processing_progress,
            });
          }
        };
        stopWatching.current = watchProcessing(trackId, onStatus, (e) =>
          console.warn('upload: status read failed, trying again', e),
        );
      }),
    [fail],
  );

  const start = useCallback(
    async (request: UploadRequest) => {
      setError(null);
      const controller = new AbortController();
      abort.current = controller;
      try {
        let objectName =
          uploaded.current?.file === request.audio ? uploaded.current.objectName : null;
        if (!objectName) {
          const total = request.audio.size;
          setPhase({ kind: 'uploading', sent: 0, total, reconnecting: false });
          objectName = await uploadAudio({
            userId: request.userId,
            file: request.audio,
            contentType: request.contentType,
            signal: controller.signal,
            onProgress: (sent, all) =>
              setPhase((p) => (p.kind === 'uploading' ? { ...p, sent, total: all } : p)),
            onReconnecting: (reconnecting) =>
              setPhase((p) => (p.kind === 'uploading' ? { ...p, reconnecting } : p)),
          }).catch(async (e: unknown) => {
            throw await audioRefusal(e);
          });
          uploaded.current = { file: request.audio, objectName };
        }
        setPhase({ kind: 'saving' });
        const coverUrl = request.cover ? await uploadCover(request.userId, request.cover) : null;
        const trackId = crypto.randomUUID();
        try {
          await createTrack({
            id: trackId,
            userId: request.userId,
            objectName,
            coverUrl,
            details: request.details,
          });
        } catch (e) {
          // A refused row (the monthly limit, the last slot taken by a parallel upload) leaves
          // no files behind; after a lost connection the audio is kept to try the row again.
          if (refusedRow(e)) {
            uploaded.current = null;
            await discardUpload(objectName, coverUrl).catch(() => undefined);
          }
          throw e;
        }
        uploaded.current = null;
        await follow(trackId);
      } catch (e) {
        if (controller.signal.aborted) return;
        fail(e);
      }
    },
    [fail, follow],
  );

  const reset = useCallback(() => {
    stopWatching.current?.();
    setError(null);
    setPhase({ kind: 'idle' });
  }, []);

  const cancel = useCallback(() => abort.current?.abort(), []);

  return { phase, error, start, reset, cancel, busy: phase.kind !== 'idle' };
}
