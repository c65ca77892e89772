/**
 * The processing job queue (`public.track_jobs`): claims queued jobs (`for update skip locked`,
 * so several server instances share one queue; a lease, lease.ts, so a killed worker's job is
 * taken over and a stale worker writes nothing), runs each on the worker pool, reports its
 * stages on the track row, stores the renditions and the waveform, and marks the track ready or
 * failed. Also removes the files of deleted tracks (`public.storage_garbage`), and originals that
 * no track points at once they are a day old (a track insert refused after its audio went up).
 */
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import { readAll, type ObjectStore } from '../storage/object-store';
import { startJobLoop } from '../lib/job-loop';
import { removeObjects, type Caller } from '../storage/objects';
import { putObjectAsService } from '../storage/service';
import { AudioRejected } from './inspect';
import type { ProcessedAudio, Stage } from './process-audio';
import { recordProcessed, renditionObjects } from './record';
import { LEASE_MS, LeaseLost, claimToken, claimableSql, holdLease, type HeldLease } from './lease';
import { ProcessingPool } from './worker-pool';

export interface TrackProcessingOptions {
  db: Database;
  store: ObjectStore;
  /** Worker threads (default 2, or PROCESSING_WORKERS). 0 processes nothing (another instance does). */
  workers?: number;
  /** How often an idle server looks for queued jobs (ms). */
  pollMs?: number;
  log?: (message: string) => void;
  /**
   * An original of the tracks bucket that no track points at is removed once it is this old
   * (default 24 h: the upload page may still insert its track, e.g. after a dropped connection).
   */
  orphanGraceMs?: number;
  /** How often the tracks bucket is looked through for such originals (default 10 minutes). */
  orphanSweepMs?: number;
  /**
   * How long a running job's claim holds without renewal (default LEASE_MS, 2 minutes; the
   * holder renews it every quarter). Must be the same on every node. Tests shorten it.
   */
  leaseMs?: number;
  /**
   * Whether this instance runs the storage garbage sweeps (default true). Safe on several nodes
   * at once (docs/nodes.md); a role that must not touch storage in the background (a web node
   * when workers exist) passes false.
   */
  sweeps?: boolean;
  /** Test hook: replaces the processing on the worker pool. */
  processAudio?: (
    bytes: Uint8Array,
    onStage: (stage: Stage, progress: number | null) => void,
  ) => Promise<ProcessedAudio>;
}

export interface TrackProcessing {
  /** Look for work now (after an insert this process made). */
  kick(): void;
  /** Resolves once no job is queued or running (the seed and tests wait for it). */
  idle(): Promise<void>;
  close(): Promise<void>;
  /** A drain's deadline: the jobs running go back to the queue now (JobLoop.handBack). */
  handBack(): Promise<number>;
}

/** A job that failed this many times for reasons other than its audio fails the track. */
export const MAX_ATTEMPTS = 3;
const FAILED_TO_PROCESS = 'Processing failed. Please try again.';
export const ORPHAN_GRACE_MS = 24 * 60 * 60 * 1000;
const ORPHAN_SWEEP_MS = 10 * 60 * 1000;
/** Originals queued per sweep (the next sweep takes the rest). */
const ORPHANS_PER_SWEEP = 500;
/** The server's own rights on storage (RLS bypassed), as the seeder writes. */
const SERVICE: Caller = { claims: { role: 'service_role' } };

interface Claimed {
  track_id: string;
  /** This claim's lease token (locked_by): every write of the job is fenced by it. */
  token: string;
  attempts: number;
  audio_url: string;
  uploaded_by: string;
}

export function startTrackProcessing(options: TrackProcessingOptions): TrackProcessing {
  const { db, store } = options;
  const log = options.log ?? (() => undefined);
  const size = Math.max(0, options.workers ?? 2);
  const pool = size > 0 ? new ProcessingPool(size) : null;
  const processAudio =
    options.processAudio ??
    ((bytes: Uint8Array, onStage: (stage: Stage, progress: number | null) => void) =>
      (pool as ProcessingPool).process(bytes, onStage));
  const me = `soundloft-${process.pid}-${randomUUID().slice(0, 8)}`;
  const pollMs = options.pollMs ?? 500;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const sweeps = options.sweeps ?? true;

  /** The track's stage, while the job is still this claim's (also renews the lease). */
  const setStage = async (job: Claimed, stage: Stage, progress: number | null) => {
    await db.query(
      `with held as (
         update public.track_jobs set locked_at = now()
          where track_id = $1 and locked_by = $4 and state = 'running'
         returning track_id)
       update public.tracks t set processing_stage = $2, processing_progress = $3
         from held where t.id = held.track_id and t.status = 'processing'`,
      [job.track_id, stage, progress, job.token],
    );
  };

  /** Ends the claim (state done/failed/queued) if it is still this one's; throws LeaseLost if not. */
  const release = async (tx: Queryable, job: Claimed, set: string, params: unknown[] = []) => {
    const { rows } = await tx.query(
      `update public.track_jobs set ${set}, locked_by = null, updated_at = now()
        where track_id = $1 and locked_by = $2 and state = 'running' returning track_id`,
      [job.track_id, job.token, ...params],
    );
    if (rows.length === 0) throw new LeaseLost(job.track_id);
  };

  const finish = async (job: Claimed, original: Uint8Array, result: ProcessedAudio) => {
    for (const object of renditionObjects(job.track_id, job.uploaded_by, result, original)) {
      // Not over a takeover's renditions (see docs/nodes.md for the window left).
      if (!(await lease(job).check())) throw new LeaseLost(job.track_id);
      await putObjectAsService(db, store, {
        ...object,
        cacheControl: 'max-age=3600',
        upsert: true,
      });
    }
    await db.transaction(async (tx) => {
      // The fence first: its row lock keeps a takeover out until this commits.
      await release(tx, job, `state = 'done', last_error = null`);
      await recordProcessed(tx, job.track_id, result);
    });
    log(
      `processing: ${job.track_id} ready (${result.format}, ${result.seconds.toFixed(1)} s, ` +
        `${Object.entries(result.timings)
          .map(([k, v]) => `${k} ${v} ms`)
          .join(', ')})`,
    );
  };

  const fail = async (job: Claimed, reason: string, removeOriginal: boolean) => {
    await db.transaction(async (tx) => {
      await release(tx, job, `state = 'failed', last_error = $3`, [reason]);
      await tx.query(
        `update public.tracks set status = 'failed', processing_stage = null,
                processing_progress = null, status_reason = $2 where id = $1`,
        [job.track_id, reason],
      );
    });
    if (removeOriginal) {
      const name = job.audio_url.replace(/^tracks\//, '');
      await removeObjects(db, store, SERVICE, 'tracks', [name]);
    }
  };

  const retryLater = async (job: Claimed, error: string) => {
    await db.transaction(async (tx) => {
      await release(
        tx,
        job,
        `state = 'queued', last_error = $3, run_after = now() + make_interval(secs => $4)`,
        [error.slice(0, 2000), 5 * 2 ** job.attempts],
      );
      await tx.query(
        `update public.tracks set processing_stage = 'queued', processing_progress = null
          where id = $1 and status = 'processing'`,
        [job.track_id],
      );
    });
  };

  const leases = new Map<string, HeldLease>();
  const lease = (job: Claimed) => leases.get(job.token) as HeldLease;

  const run = async (job: Claimed) => {
    leases.set(job.token, holdLease(db, 'track_jobs', job.track_id, job.token, leaseMs));
    try {
      await runHeld(job);
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
      log(`processing: ${job.track_id}: ${error.message}; this worker's result is dropped`);
    } finally {
      lease(job).stop();
      leases.delete(job.token);
    }
  };

  const runHeld = async (job: Claimed) => {
    if (job.attempts > MAX_ATTEMPTS) {
      // Claimed again and again without an end: its workers died on it (taken over each time).
      log(`processing: ${job.track_id} failed: claimed ${job.attempts} times`);
      await fail(job, FAILED_TO_PROCESS, false);
      return;
    }
    const objectName = /^tracks\/(.+)$/.exec(job.audio_url)?.[1];
    const original = objectName ? await readAll(store, 'tracks', objectName) : null;
    if (!original) {
      await fail(job, 'Audio file not found. Please upload it again.', false);
      return;
    }
    let lastStage = '';
    let lastProgress = -1;
    let reporting = Promise.resolve();
    try {
      const result = await processAudio(original.slice(), (stage, progress) => {
        if (stage === lastStage && (progress ?? 0) - lastProgress < 0.05) return;
        lastStage = stage;
        lastProgress = progress ?? 0;
        reporting = reporting.then(() => setStage(job, stage, progress)).catch(() => undefined);
      });
      await reporting;
      await finish(job, original, result);
    } catch (error) {
      await reporting;
      if (error instanceof LeaseLost) throw error;
      if (error instanceof AudioRejected) {
        log(`processing: ${job.track_id} refused: ${error.message}`);
        await fail(job, error.message, true);
      } else if (job.attempts >= MAX_ATTEMPTS) {
        log(`processing: ${job.track_id} failed: ${String(error)}`);
        await fail(job, FAILED_TO_PROCESS, false);
      } else {
        log(`processing: ${job.track_id} will be retried: ${String(error)}`);
        await retryLater(job, String((error as Error)?.stack ?? error));
      }
    }
  };

  const claim = async (): Promise<Claimed | null> => {
    const token = claimToken(me);
    const { rows } = await db.query<Omit<Claimed, 'token'>>(
      `with next as (
         select track_id from public.track_jobs
          where ${claimableSql('$2')}
          order by run_after
          limit 1
          for update skip locked
       ), claimed as (
         update public.track_jobs j
            set state = 'running', attempts = j.attempts + 1, locked_by = $1,
                locked_at = now(), updated_at = now()
           from next where j.track_id = next.track_id
         returning j.track_id, j.attempts
       )
       select c.track_id, c.attempts, t.audio_url, t.uploaded_by
         from claimed c join public.tracks t on t.id = c.track_id`,
      [token, leaseMs / 1000],
    );
    return rows[0] ? { ...rows[0], token } : null;
  };

  /**
   * Queues the originals no track points at (in either spelling of audio_url) that are older than
   * the grace period. Only the tracks bucket: renditions, stems and covers are queued by the
   * deletion of their track.
   */
  const orphanGraceMs = options.orphanGraceMs ?? ORPHAN_GRACE_MS;
  const orphanSweepMs = options.orphanSweepMs ?? ORPHAN_SWEEP_MS;
  let lastSweep = Number.NEGATIVE_INFINITY;
  const queueOrphans = async () => {
    if (performance.now() - lastSweep < orphanSweepMs) return;
    lastSweep = performance.now();
    const { rows } = await db.query<{ name: string }>(
      `insert into public.storage_garbage (bucket_id, name)
       select 'tracks', o.name from storage.objects o
        where o.bucket_id = 'tracks'
          and o.created_at < now() - make_interval(secs => $1)
          and not exists (
            select 1 from public.tracks t where public.track_audio_object(t.audio_url) = o.name)
        order by o.created_at
        limit ${ORPHANS_PER_SWEEP}
       on conflict do nothing
       returning name`,
      [orphanGraceMs / 1000],
    );
    if (rows.length > 0) log(`processing: ${rows.length} original(s) no track uses, queued`);
  };

  /**
   * Removes an original unless a track points at it now. The object row is locked first, so a
   * track insert that locked it (owns_audio_object) has committed and is seen by the check; an
   * insert that comes after finds no object. True when the bytes may go.
   */
  const removeUnusedOriginal = (name: string) =>
    db.transaction(async (tx) => {
      const locked = await tx.query(
        `select 1 from storage.objects where bucket_id = 'tracks' and name = $1 for update`,
        [name],
      );
      if (locked.rows.length === 0) return true;
      const removed = await tx.query(
        `delete from storage.objects
          where bucket_id = 'tracks' and name = $1
            and not exists (
              select 1 from public.tracks t where public.track_audio_object(t.audio_url) = $1)
          returning name`,
        [name],
      );
      return removed.rows.length > 0;
    });

  const collectGarbage = async () => {
    await queueOrphans();
    const { rows } = await db.query<{ bucket_id: string; name: string }>(
      'select bucket_id, name from public.storage_garbage order by queued_at limit 100',
    );
    for (const row of rows) {
      if (row.bucket_id === 'tracks') {
        const unused = await removeUnusedOriginal(row.name).catch(() => false);
        if (unused) await store.remove('tracks', row.name).catch(() => undefined);
      } else {
        await removeObjects(db, store, SERVICE, row.bucket_id, [row.name]).catch(() => undefined);
        await store.remove(row.bucket_id, row.name).catch(() => undefined);
      }
      await db.query('delete from public.storage_garbage where bucket_id = $1 and name = $2', [
        row.bucket_id,
        row.name,
      ]);
    }
  };

  const count = async (sql: string) =>
    Number((await db.query<{ n: string | number }>(sql)).rows[0]?.n ?? 0);

  const loop = startJobLoop({
    slots: pool ? pool.size : 0,
    pollMs,
    claim,
    run,
    beforeClaim: sweeps ? collectGarbage : undefined,
    pending: async () => {
      if (sweeps && (await count('select count(*) as n from public.storage_garbage')) > 0)
        return true;
      if (!pool) return false;
      return (
        (await count(
          `select count(*) as n from public.track_jobs where state in ('queued', 'running')`,
        )) > 0
      );
    },
    // The track shows 'queued' again, in the same statement as the fenced hand-back.
    handBack: async (job) =>
      (await leases.get(job.token)?.handBack({
        cte: `stage as (update public.tracks t set processing_stage = 'queued', processing_progress = null
                     from back where t.id = back.track_id and t.status = 'processing')`,
      })) ?? false,
    log,
    label: 'processing',
    nameOf: (job) => job.track_id,
  });

  return {
    kick: loop.kick,
    idle: loop.idle,
    handBack: loop.handBack,
    async close() {
      await loop.close();
      await pool?.close();
    },
  };
}
