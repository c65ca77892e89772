/** A processing worker thread: processes the uploads it is sent, one at a time. */
import { parentPort } from 'node:worker_threads';
import { AudioRejected } from './inspect';
import { processAudio } from './process-audio';

export interface WorkerRequest {
  id: number;
  bytes: Uint8Array;
}

export type WorkerMessage =
  | { id: number; type: 'stage'; stage: string; progress: number | null }
  | { id: number; type: 'done'; result: Awaited<ReturnType<typeof processAudio>> }
  | { id: number; type: 'rejected'; reason: string }
  | { id: number; type: 'error'; error: string };

if (!parentPort) throw new Error('server/processing/worker.ts runs as a worker thread');
const port = parentPort;
port.on('message', (request: WorkerRequest) => {
  const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) =>
    port.postMessage(message, transfer);
  processAudio(request.bytes, (stage, progress) =>
    post({ id: request.id, type: 'stage', stage, progress }),
  ).then(
    (result) => {
      const transfer = [result.standard, result.high]
        .filter((r): r is Uint8Array => r instanceof Uint8Array)
        .map((r) => r.buffer as ArrayBuffer);
      post({ id: request.id, type: 'done', result }, transfer);
    },
    (error: unknown) => {
      if (error instanceof AudioRejected)
        post({ id: request.id, type: 'rejected', reason: error.message });
      else post({ id: request.id, type: 'error', error: String((error as Error)?.stack ?? error) });
    },
  );
});
