/**
 * Worker thread of the separator: separates the PCM it is sent (`pcm`), decodes, separates and
 * encodes a stored file (`file`), or encodes stems (`encode`, the file job's helper), and
 * transfers the result back.
 */
import { parentPort } from 'node:worker_threads';
import { encodeMp3 } from '../processing/encode-mp3';
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
  if (request.type === 'encode') {
    (async () => {
      const files: Uint8Array[] = [];
      for (const channels of request.stems) {
        files.push(await encodeMp3(channels, request.sampleRate, request.kbps));
      }
      return files;
    })().then(
      (files) =>
        port.postMessage(
          { type: 'encoded', files } satisfies SeparateReply,
          files.map((f) => f.buffer as ArrayBuffer),
        ),
      fail,
    );
    return;
  }
  try {
    const stems = separate(request.channels, request.sampleRate, {
      onProgress: progress,
      tuning: request.tuning,
    });
    const transfer = STEM_NAMES.flatMap((name) =>
      stems[name].channels.map((ch) => ch.buffer as ArrayBuffer),
    );
    port.postMessage({ type: 'done', stems } satisfies SeparateReply, transfer);
  } catch (error) {
    fail(error);
  }
});
