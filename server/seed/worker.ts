/**
 * Worker thread of the generator: renders and encodes the tracks it is sent, then runs each MP3
 * through the upload pipeline's processing (processAudio: decode, peaks, loudness, renditions),
 * on this thread, as a processing worker would. Started with the processing workers' flags.
 */
import { parentPort } from 'node:worker_threads';
import { processAudio } from '../processing/process-audio';
import { renderTrack, type TrackJob } from './media';

if (!parentPort) throw new Error('server/seed/worker.ts runs as a worker thread');
const port = parentPort;
port.on('message', (job: TrackJob) => {
  renderTrack(job)
    .then(async (audio) => {
      const { timings: _timings, ...processed } = await processAudio(audio.mp3.slice());
      return { ...audio, processed };
    })
    .then(
      (audio) => {
        const transfer = [audio.mp3, audio.processed.standard, audio.processed.high]
          .filter((r): r is Uint8Array => r instanceof Uint8Array)
          .map((r) => r.buffer as ArrayBuffer);
        port.postMessage({ ok: true, audio }, transfer);
      },
      (error: unknown) =>
        port.postMessage({
          ok: false,
          key: job.key,
          error: String((error as Error)?.stack ?? error),
        }),
    );
});
