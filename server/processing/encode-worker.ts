/**
 * A helper thread of a processing worker: encodes one MP3 rendition at a time from PCM the
 * processing worker shares with it (SharedArrayBuffer: nothing copied), so that the two
 * renditions, or a rendition and the loudness measurement, run on two cores (encode-elsewhere.ts).
 */
import { parentPort } from 'node:worker_threads';
import { encodeMp3, type Mp3Kbps } from './encode-mp3';

export interface EncodeRequest {
  id: number;
  channelData: Float32Array[];
  sampleRate: number;
  kbps: Mp3Kbps;
}

export type EncodeMessage =
  | { id: number; type: 'progress'; fraction: number }
  | { id: number; type: 'done'; bytes: Uint8Array }
  | { id: number; type: 'error'; error: string };

if (!parentPort) throw new Error('server/processing/encode-worker.ts runs as a worker thread');
const port = parentPort;
port.on('message', (request: EncodeRequest) => {
  const post = (message: EncodeMessage, transfer: ArrayBuffer[] = []) =>
    port.postMessage(message, transfer);
  let reported = 0;
  encodeMp3(request.channelData, request.sampleRate, request.kbps, (fraction) => {
    if (fraction - reported < 0.02 && fraction < 1) return;
    reported = fraction;
    post({ id: request.id, type: 'progress', fraction });
  }).then(
    (encoded) => {
      // A small result may be a view of Node's shared Buffer pool: transfer only a buffer of its own.
      const bytes =
        encoded.byteOffset === 0 && encoded.byteLength === encoded.buffer.byteLength
          ? encoded
          : new Uint8Array(encoded);
      post({ id: request.id, type: 'done', bytes }, [bytes.buffer as ArrayBuffer]);
    },
    (error: unknown) =>
      post({ id: request.id, type: 'error', error: String((error as Error)?.stack ?? error) }),
  );
});
