/**
 * Worker thread of the separator: separates the PCM it is sent (`pcm`), or decodes, separates and
 * encodes a stored file (`file`), and transfers the result back.
 */
import { parentPort } from 'node:worker_threads';
import { AudioRejected } from '../processing/inspect';
import { STEM_NAMES, separate } from './separate';
import { separateFile } from './separate-file';
import type { SeparateReply, SeparateRequest } from './on-worker';

if (!parentPort) throw new Error('server/stems/worker.ts runs as a worker thread');
const port = parentPort;
const progress = (fraction: number) =>
  port.postMessage({ type: 'progress', fraction } satisfies SeparateReply);
const fail = (error: unknown) =>
  port.postMessage(
    error instanceof AudioRejected
      ? ({ type: 'rejected', reason: error.message } satisfies SeparateReply)
      : ({
          type: 'error',
          error: String((error as Error)?.stack ?? error),
        } satisfies SeparateReply),
  );

port.on('message', (request: SeparateRequest) => {
  if (request.type === 'file') {
    separateFile(request.bytes, progress).then((result) => {
      const transfer = STEM_NAMES.map((name) => result.files[name].buffer as ArrayBuffer);
      port.postMessage({ type: 'files', result } satisfies SeparateReply, transfer);
    }, fail);
    return;
  }
  try {
    const stems = separate(request.channels, request.sampleRate, { onProgress: progress });
    const transfer = STEM_NAMES.flatMap((name) =>
      stems[name].channels.map((ch) => ch.buffer as ArrayBuffer),
    );
    port.postMessage({ type: 'done', stems } satisfies SeparateReply, transfer);
  } catch (error) {
    fail(error);
  }
});
