/**
 * Generates every file of the demo catalogue: the tracks' MP3s on worker threads (synthesis,
 * encoding and the upload pipeline's processing are CPU-bound; longest first, two jobs in flight
 * per worker) and the covers and avatars on the main thread meanwhile. Falls back to the main
 * thread if workers cannot start (then without processing: the job queue processes those tracks).
 */
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../lib/ts-worker';
import { PROCESSING_WORKER_ARGV } from '../processing/worker-pool';
import { renderAvatar, renderCover } from './art';
import type { Catalogue } from './catalogue';
import { TrackCache } from './cache';
import { renderTrack, type TrackAudio, type TrackJob } from './media';

export interface GeneratedMedia {
  tracks: Map<string, TrackAudio>;
  covers: Map<string, Uint8Array>;
  avatars: Map<string, Uint8Array>;
  /** Wall-clock milliseconds. */
  ms: number;
  workers: number;
  /** Tracks taken from the cache. */
  cached: number;
}

export interface GenerateOptions {
  /** Worker threads for audio; 0 renders on the calling thread. Default 2. */
  workers?: number;
  log?: (message: string) => void;
  /** Directory of the track cache (see cache.ts), or false for none. */
  cacheDir?: string | false;
}

type WorkerReply = { ok: true; audio: TrackAudio } | { ok: false; key: string; error: string };

function startWorker(): Worker {
  return startTsWorker(new URL('./worker.ts', import.meta.url), {
    execArgv: PROCESSING_WORKER_ARGV,
  });
}

async function renderOnWorkers(jobs: TrackJob[], count: number): Promise<Map<string, TrackAudio>> {
  const out = new Map<string, TrackAudio>();
  const queue = [...jobs];
  const workers = Array.from({ length: Math.min(count, jobs.length) }, startWorker);
  try {
    await new Promise<void>((resolve, reject) => {
      let pending = jobs.length;
      if (pending === 0) resolve();
      const feed = (worker: Worker) => {
        const job = queue.shift();
        if (job) worker.postMessage(job);
      };
      for (const worker of workers) {
        worker.on('message', (reply: WorkerReply) => {
          if (!reply.ok) return reject(new Error(`rendering ${reply.key} failed: ${reply.error}`));
          out.set(reply.audio.key, reply.audio);
          feed(worker);
          if (--pending === 0) resolve();
        });
        worker.on('error', reject);
        worker.on('exit', (code) => {
          if (pending > 0) reject(new Error(`seed worker exited with code ${code}`));
        });
        feed(worker);
        feed(worker); // two in flight: the main thread may be busy drawing covers
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return out;
}

async function renderHere(jobs: TrackJob[]): Promise<Map<string, TrackAudio>> {
  const out = new Map<string, TrackAudio>();
  for (const job of jobs) out.set(job.key, await renderTrack(job));
  return out;
}

export async function generateMedia(
  catalogue: Catalogue,
  opts: GenerateOptions = {},
): Promise<GeneratedMedia> {
  const started = performance.now();
  const log = opts.log ?? (() => undefined);
  const cache = opts.cacheDir ? new TrackCache(opts.cacheDir) : null;
  const fromCache = new Map<string, TrackAudio>();
  const jobs: TrackJob[] = [];
  for (const t of catalogue.tracks) {
    const job = { key: t.key, genre: t.genre, seconds: t.seconds, seed: t.seed };
    const hit = cache?.get(job);
    if (hit) fromCache.set(job.key, hit);
    else jobs.push(job);
  }
  jobs.sort((a, b) => b.seconds - a.seconds || a.key.localeCompare(b.key));
  let workers = jobs.length === 0 ? 0 : Math.max(0, opts.workers ?? 2);
  let audio: Promise<Map<string, TrackAudio>>;
  if (workers > 0) {
    audio = renderOnWorkers(jobs, workers).catch((error: unknown) => {
      log(`seed: worker threads failed (${String(error)}); rendering on the main thread`);
      workers = 0;
      return renderHere(jobs);
    });
  } else {
    audio = renderHere(jobs);
  }

  // Artwork meanwhile, yielding between images so worker replies are handled promptly.
  const covers = new Map<string, Uint8Array>();
  const avatars = new Map<string, Uint8Array>();
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  for (const c of catalogue.covers) {
    covers.set(c.key, renderCover(c.title, c.genre, `cover/${c.key}`));
    await tick();
  }
  for (const u of catalogue.users.filter((user) => user.avatar)) {
    avatars.set(u.key, renderAvatar(u.name, `avatar/${u.key}`));
    await tick();
  }
  const rendered = await audio;
  if (cache) {
    cache.prune();
    for (const job of jobs) {
      const audio = rendered.get(job.key);
      if (audio?.processed) cache.put(job, audio);
    }
  }
  const tracks = new Map([...fromCache, ...rendered]);
  return {
    tracks,
    covers,
    avatars,
    ms: performance.now() - started,
    workers,
    cached: fromCache.size,
  };
}
