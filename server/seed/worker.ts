/** Worker thread of the generator: renders and encodes the tracks it is sent. */
import { parentPort } from 'node:worker_threads';
import { renderTrack, type TrackJob } from './media';

if (!parentPort) throw new Error('server/seed/worker.ts runs as a worker thread');
const port = parentPort;
port.on('message', (job: TrackJob) => {
  try {
    const audio = renderTrack(job);
    port.postMessage({ ok: true, audio }, [audio.mp3.buffer as ArrayBuffer]);
  } catch (error) {
    port.postMessage({ ok: false, key: job.key, error: String((error as Error)?.stack ?? error) });
  }
});
