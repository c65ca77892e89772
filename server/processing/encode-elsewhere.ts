/**
 * Encodes an MP3 rendition on a helper thread of this thread (encode-worker.ts), started on first
 * use and kept: the processing worker measures loudness and encodes the other rendition meanwhile,
 * so one upload uses two cores (a 5-minute WAV: its 320 kbps rendition beside loudness and the
 * 128 kbps one). The PCM goes over as SharedArrayBuffers: no copy. A crashed helper fails the
 * encode with an error (the job queue retries the upload) and is replaced on the next one.
 */
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../lib/ts-worker';
import type { Mp3Kbps } from './encode-mp3';
import type { EncodeMessage, EncodeRequest } from './encode-worker';

interface Pending {
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
  onProgress: (fraction: number) => void;
}

let helper: Worker | null = null;
const pending = new Map<number, Pending>();
let nextId = 1;

function failAll(error: Error) {
  for (const task of pending.values()) task.reject(error);
  pending.clear();
}

function startHelper(): Worker {
  const worker = startTsWorker(new URL('./encode-worker.ts', import.meta.url));
  worker.on('message', (message: EncodeMessage) => {
    const task = pending.get(message.id);
    if (!task) return;
    if (message.type === 'progress') {
      task.onProgress(message.fraction);
      return;
    }
    pending.delete(message.id);
    if (pending.size === 0) worker.unref();
    if (message.type === 'done') task.resolve(message.bytes);
    else task.reject(new Error(message.error));
  });
  const gone = (error: Error) => {
    if (helper === worker) helper = null;
    failAll(error);
  };
  worker.on('error', gone);
  worker.on('exit', (code) => gone(new Error(`MP3 encoding helper exited (${code})`)));
  worker.unref();
  return worker;
}

/** Copies the channels into SharedArrayBuffers (once), so that threads can read them in place. */
export function shareChannels(channelData: Float32Array[]): Float32Array[] {
  return channelData.map((channel) => {
    if (channel.buffer instanceof SharedArrayBuffer) return channel;
    const shared = new Float32Array(new SharedArrayBuffer(channel.byteLength));
    shared.set(channel);
    return shared;
  });
}

/** encodeMp3 on the helper thread; `channelData` should be shared (shareChannels) to avoid a copy. */
export function encodeMp3Elsewhere(
  channelData: Float32Array[],
  sampleRate: number,
  kbps: Mp3Kbps,
  onProgress: (fraction: number) => void = () => undefined,
): Promise<Uint8Array> {
  helper ??= startHelper();
  const worker = helper;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, onProgress });
    worker.ref();
    const request: EncodeRequest = { id, channelData, sampleRate, kbps };
    worker.postMessage(request);
  });
}
