/**
 * Runs the separator on its own worker thread (seconds of CPU per minute of audio must not block
 * the server's event loop). One worker per separation, ended when it answers: separations are
 * rare and cached per track, and a fresh worker returns its few hundred MB to the system.
 */
import { startTsWorker } from '../lib/ts-worker';
import type { Stems } from './separate';

export interface SeparateRequest {
  channels: Float32Array[];
  sampleRate: number;
}

export type SeparateReply =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; stems: Stems }
  | { type: 'error'; error: string };

export function separateOnWorker(
  channels: Float32Array[],
  sampleRate: number,
  onProgress?: (fraction: number) => void,
): Promise<Stems> {
  const worker = startTsWorker(new URL('./worker.ts', import.meta.url));
  return new Promise<Stems>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      fn();
    };
    worker.on('message', (reply: SeparateReply) => {
      if (reply.type === 'progress') onProgress?.(reply.fraction);
      else if (reply.type === 'done') finish(() => resolve(reply.stems));
      else finish(() => reject(new Error(reply.error)));
    });
    worker.on('error', (error) => finish(() => reject(error)));
    worker.on('exit', (code) =>
      finish(() => reject(new Error(`stems worker exited with code ${code}`))),
    );
    // Copies (not transfers) the input: the caller keeps its PCM.
    worker.postMessage({ channels, sampleRate } satisfies SeparateRequest);
  });
}
