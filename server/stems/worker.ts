/** Worker thread of the separator: separates the PCM it is sent and transfers the stems back. */
import { parentPort } from 'node:worker_threads';
import { STEM_NAMES, separate } from './separate';
import type { SeparateReply, SeparateRequest } from './on-worker';

if (!parentPort) throw new Error('server/stems/worker.ts runs as a worker thread');
const port = parentPort;
port.on('message', (request: SeparateRequest) => {
  try {
    const stems = separate(request.channels, request.sampleRate, {
      onProgress: (fraction) =>
        port.postMessage({ type: 'progress', fraction } satisfies SeparateReply),
    });
    const transfer = STEM_NAMES.flatMap((name) =>
      stems[name].channels.map((ch) => ch.buffer as ArrayBuffer),
    );
    port.postMessage({ type: 'done', stems } satisfies SeparateReply, transfer);
  } catch (error) {
    port.postMessage({
      type: 'error',
      error: String((error as Error)?.stack ?? error),
    } satisfies SeparateReply);
  }
});
