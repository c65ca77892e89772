/**
 * Runs the separator on its own worker thread (seconds of CPU per minute of audio must not block
 * the server's event loop). One worker per separation, ended when it answers: separations are
 * rare and cached per track, and a fresh worker returns its few hundred MB to the system.
 */
import { startTsWorker } from '../lib/ts-worker';
import { AudioRejected } from '../processing/inspect';
import type { StemFiles, Stems, Tuning } from './separate';
import type { Mp3Kbps } from '../processing/encode-mp3';

export type SeparateRequest =
  | { type: 'pcm'; channels: Float32Array[]; sampleRate: number; tuning?: Partial<Tuning> }
  | { type: 'file'; bytes: Uint8Array }
  | { type: 'encode'; stems: Float32Array[][]; sampleRate: number; kbps: Mp3Kbps };

export type SeparateReply =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; stems: Stems }
  | { type: 'files'; result: StemFiles }
  | { type: 'encoded'; files: Uint8Array[] }
  | { type: 'rejected'; reason: string }
  | { type: 'error'; error: string };

function onWorker<T>(
  request: SeparateRequest,
  pick: (reply: SeparateReply) => T | undefined,
  onProgress?: (fraction: number) => void,
  transfer: ArrayBuffer[] = [],
): Promise<T> {
  const worker = startTsWorker(new URL('./worker.ts', import.meta.url));
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      fn();
    };
    worker.on('message', (reply: SeparateReply) => {
      if (reply.type === 'progress') onProgress?.(reply.fraction);
      else if (reply.type === 'rejected') finish(() => reject(new AudioRejected(reply.reason)));
      else if (reply.type === 'error') finish(() => reject(new Error(reply.error)));
      else {
        const value = pick(reply);
        if (value !== undefined) finish(() => resolve(value));
      }
    });
    worker.on('error', (error) => finish(() => reject(error)));
    worker.on('exit', (code) =>
      finish(() => reject(new Error(`stems worker exited with code ${code}`))),
    );
    // Copies the input (the caller keeps its data) unless `transfer` hands its buffers over.
    worker.postMessage(request, transfer);
  });
}

/** Separates PCM (the bench, tests). */
export function separateOnWorker(
  channels: Float32Array[],
  sampleRate: number,
  onProgress?: (fraction: number) => void,
  tuning?: Partial<Tuning>,
): Promise<Stems> {
  return onWorker(
    { type: 'pcm', channels, sampleRate, tuning },
    (reply) => (reply.type === 'done' ? reply.stems : undefined),
    onProgress,
  );
}

/** Decodes, separates and encodes an audio file to four MP3 stems (the job runner). */
export function separateFileOnWorker(
  bytes: Uint8Array,
  onProgress?: (fraction: number) => void,
): Promise<StemFiles> {
  return onWorker(
    { type: 'file', bytes },
    (reply) => (reply.type === 'files' ? reply.result : undefined),
    onProgress,
  );
}

/**
 * Encodes stems to MP3 on another worker (the stems job encodes half of its stems there while it
 * encodes the others: the four encodes are a third of the job). The PCM is transferred, not copied.
 */
export function encodeOnWorker(
  stems: Float32Array[][],
  sampleRate: number,
  kbps: Mp3Kbps,
): Promise<Uint8Array[]> {
  return onWorker(
    { type: 'encode', stems, sampleRate, kbps },
    (reply) => (reply.type === 'encoded' ? reply.files : undefined),
    undefined,
    stems.flat().map((ch) => ch.buffer as ArrayBuffer),
  );
}
