/**
 * The stems job queue (`public.stem_jobs`, one row per track): claims queued separations
 * (`for update skip locked`, so several server instances share one queue), reads the track's
 * original through the storage layer, separates it on a worker thread (or, with SEPARATOR_URL,
 * delegates to an external separator speaking the `spleeter` contract), stores the four MP3s in
 * the `stems` bucket under the track and marks the job done or failed. The `spleeter` function
 * queues jobs (`public.request_stem_job`) and reads their state; it never waits for one.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database';
import { readAll, type ObjectStore } from '../storage/object-store';
import { startJobLoop, type JobLoop } from '../lib/job-loop';
import { encodeObjectName, putObjectAsService } from '../storage/service';
import { signObjectUrl } from '../storage/signed-urls';
import { AudioRejected } from '../processing/inspect';
import {
  LEASE_MS,
  LeaseLost,
  claimToken,
  claimableSql,
  holdLease,
  type HeldLease,
} from '../processing/lease';
import { separateFileOnWorker } from './on-worker';
import { STEM_NAMES, type StemName } from './separate';

export interface StemJobsOptions {
  db: Database;
  store: ObjectStore;
  /** Separations at once on this instance (default 1: each takes a core and ~400 MB). 0: none. */
  workers?: number;
  /** How often an idle server looks for queued jobs (ms). */
  pollMs?: number;
  /** An external separator with the `spleeter` contract; the original is handed to it signed. */
  separatorUrl?: string;
  /** Sent as `Authorization: Bearer` to the external separator. */
  separatorKey?: string;
  /** This server's address as the external separator reaches it, and the key signing URLs. */
  publicUrl?: string;
  jwtSecret?: string;
  log?: (message: string) => void;
  /** Test hook: replaces the separation (default: on a worker thread). */
  separate?: typeof separateFileOnWorker;
  /** How long a running job's claim holds without renewal (default LEASE_MS; tests shorten it). */
  leaseMs?: number;
}

/** kick, idle (no stem job queued or running), close. */
export type StemJobs = JobLoop;

/** A job claimed this many times without an end (its workers died on it) fails. */
const MAX_CLAIMS = 3;
/** How long the external separator may take before the job fails. */
const EXTERNAL_TIMEOUT_MS = 10 * 60_000;

export function stemObjectName(trackId: string, stem: StemName): string {
  return `${trackId}/${stem}.mp3`;
}

interface Claimed {
  track_id: string;
  /** This claim's lease token (locked_by): every write of the job is fenced by it. */
  token: string;
  attempts: number;
  object_name: string | null;
  uploaded_by: string | null;
}

/** Asks an external separator (same contract as ours: 202 + state while working) for the stems. */
async function separateExternally(
  url: string,
  key: string | undefined,
  audioUrl: string,
  onProgress: (fraction: number) => void,
): Promise<Record<StemName, Uint8Array>> {
  const deadline = Date.now() + EXTERNAL_TIMEOUT_MS;
  for (;;) {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify({ audioUrl }),
    });
    const body = (await res.json().catch(() => null)) as {
      stemUrls?: unknown;
      progress?: unknown;
      error?: unknown;
    } | null;
    if (!res.ok) throw new Error(`separator answered ${res.status}: ${JSON.stringify(body)}`);
    const urls = body?.stemUrls;
    if (Array.isArray(urls) && urls.length === STEM_NAMES.length) {
      const files = {} as Record<StemName, Uint8Array>;
      for (const [i, name] of STEM_NAMES.entries()) {
        const stem = await fetch(new URL(String(urls[i]), url));
        if (!stem.ok) throw new Error(`stem ${name}: ${stem.status}`);
        files[name] = new Uint8Array(await stem.arrayBuffer());
      }
      return files;
    }
    if (res.status !== 202) throw new Error(`separator answered without stemUrls`);
    if (typeof body?.progress === 'number') onProgress(Math.min(0.95, Math.max(0, body.progress)));
    if (Date.now() > deadline) throw new Error('separator timed out');
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

export function startStemJobs(options: StemJobsOptions): StemJobs {
  const { db, store } = options;
  const log = options.log ?? (() => undefined);
  const size = Math.max(0, options.workers ?? 1);
  const separateFile = options.separate ?? separateFileOnWorker;
  const me = `soundloft-stems-${process.pid}-${randomUUID().slice(0, 8)}`;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? LEASE_MS;

  const report = (job: Claimed, progress: number) =>
    db.query(
      `update public.stem_jobs set progress = $2, locked_at = now(), updated_at = now()
        where track_id = $1 and state = 'running' and locked_by = $3`,
      [job.track_id, Math.min(1, Math.max(0, progress)), job.token],
    );

  /** Ends the claim if it is still this one's (the fence); throws LeaseLost if not. */
  const release = async (job: Claimed, set: string, params: unknown[]) => {
    const { rows } = await db.query(
      `update public.stem_jobs set ${set}, locked_by = null, updated_at = now()
        where track_id = $1 and locked_by = $2 and state = 'running' returning track_id`,
      [job.track_id, job.token, ...params],
    );
    if (rows.length === 0) throw new LeaseLost(job.track_id);
  };

  const fail = (job: Claimed, error: string) =>
    release(job, `state = 'failed', last_error = $3`, [error.slice(0, 2000)]);

  const leases = new Map<string, HeldLease>();
  const run = async (job: Claimed) => {
    const lease = holdLease(db, 'stem_jobs', job.track_id, job.token, leaseMs);
    leases.set(job.token, lease);
    try {
      await runHeld(job, lease);
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
      log(`stems: ${job.track_id}: ${error.message}; this worker's result is dropped`);
    } finally {
      lease.stop();
      leases.delete(job.token);
    }
  };

  const runHeld = async (job: Claimed, lease: HeldLease) => {
    if (job.attempts > MAX_CLAIMS) {
      await fail(job, `claimed ${job.attempts} times without an end (its workers died)`);
      return;
    }
    const started = performance.now();
    const original = job.object_name ? await readAll(store, 'tracks', job.object_name) : null;
    if (!original || !job.object_name) {
      await fail(job, 'The original audio file is missing.');
      return;
    }
    let last = -1;
    let reporting = Promise.resolve();
    const onProgress = (fraction: number) => {
      if (fraction - last < 0.02 && fraction < 1) return;
      last = fraction;
      reporting = reporting
        .then(() => report(job, fraction))
        .then(
          () => undefined,
          () => undefined,
        );
    };
    try {
      let files: Record<StemName, Uint8Array>;
      let separator: 'soundloft' | 'external';
      if (options.separatorUrl) {
        if (!options.publicUrl || !options.jwtSecret)
          throw new Error('SEPARATOR_URL needs the server public URL and JWT secret');
        const token = signObjectUrl(options.jwtSecret, 'tracks', job.object_name, 3600);
        const audioUrl = `${options.publicUrl.replace(/\/+$/, '')}/storage/v1/object/sign/tracks/${encodeObjectName(job.object_name)}?token=${token}`;
        files = await separateExternally(
          options.separatorUrl,
          options.separatorKey,
          audioUrl,
          onProgress,
        );
        separator = 'external';
      } else {
        files = (await separateFile(original, onProgress)).files;
        separator = 'soundloft';
      }
      await reporting;
      for (const name of STEM_NAMES) {
        // Not over a takeover's stems (see docs/nodes.md for the window left).
        if (!(await lease.check())) throw new LeaseLost(job.track_id);
        await putObjectAsService(db, store, {
          bucket: 'stems',
          name: stemObjectName(job.track_id, name),
          owner: job.uploaded_by,
          bytes: files[name],
          contentType: 'audio/mpeg',
          cacheControl: 'max-age=3600',
          upsert: true,
        });
      }
      const ms = Math.round(performance.now() - started);
      await release(
        job,
        `state = 'done', progress = 1, last_error = null, separator = $3, separation_ms = $4`,
        [separator, ms],
      );
      log(`stems: ${job.track_id} separated (${separator}, ${ms} ms)`);
    } catch (error) {
      await reporting;
      if (error instanceof LeaseLost) throw error;
      const reason =
        error instanceof AudioRejected ? error.message : String((error as Error)?.stack ?? error);
      log(`stems: ${job.track_id} failed: ${reason.split('\n')[0]}`);
      await fail(job, reason);
    }
  };

  const claim = async (): Promise<Claimed | null> => {
    const token = claimToken(me);
    const { rows } = await db.query<Omit<Claimed, 'token'>>(
      `with next as (
         select track_id from public.stem_jobs
          where ${claimableSql('$2')}
          order by run_after
          limit 1
          for update skip locked
       ), claimed as (
         update public.stem_jobs j
            set state = 'running', progress = 0, attempts = j.attempts + 1, locked_by = $1,
                locked_at = now(), updated_at = now()
           from next where j.track_id = next.track_id
         returning j.track_id, j.attempts
       )
       select c.track_id, c.attempts, public.track_audio_object(t.audio_url) as object_name,
              t.uploaded_by
         from claimed c join public.tracks t on t.id = c.track_id`,
      [token, leaseMs / 1000],
    );
    return rows[0] ? { ...rows[0], token } : null;
  };

  return startJobLoop({
    slots: size,
    pollMs,
    claim,
    run,
    pending: async () =>
      size > 0 &&
      Number(
        (
          await db.query<{ n: string | number }>(
            `select count(*) as n from public.stem_jobs where state in ('queued', 'running')`,
          )
        ).rows[0]?.n ?? 0,
      ) > 0,
    // Its progress starts again from 0 with the next claim.
    handBack: async (job) =>
      (await leases.get(job.token)?.handBack({ set: 'progress = 0' })) ?? false,
    log,
    label: 'stems',
    nameOf: (job) => job.track_id,
  });
}
