/**
 * Leases of the database job queues (public.track_jobs, public.stem_jobs, and the account jobs
 * public.data_exports and public.account_deletions, docs/privacy-rights.md; docs/nodes.md): a
 * claim writes a token of its own in `locked_by` and the time in `locked_at`; the holder renews
 * `locked_at` while it works; a running job whose `locked_at` is older than the lease is taken
 * over by the next claim (a killed worker renews nothing). Every write of a holder is fenced by
 * its token (`locked_by = token and state = 'running'`): a worker that stalled past its lease and
 * wakes up after a takeover finds its token gone and writes nothing. A draining node whose
 * deadline comes mid-job hands the job back (`handBack`): queued again at once, fenced the same
 * way, its claim not counted.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database';

/** How long a running job's claim holds without renewal (the same on every node). */
export const LEASE_MS = 120_000;

export type JobTable = 'track_jobs' | 'stem_jobs' | 'data_exports' | 'account_deletions';

/** The key column of each job table (constants, never input). */
const KEY: Record<JobTable, string> = {
  track_jobs: 'track_id',
  stem_jobs: 'track_id',
  data_exports: 'id',
  account_deletions: 'user_id',
};

/** A write refused because the job's lease is no longer this worker's. */
export class LeaseLost extends Error {
  constructor(trackId: string) {
    super(`the lease of ${trackId} was lost: another worker took the job over`);
  }
}

/** A token for one claim: `<worker>/<random>` (the worker part only helps reading the table). */
export function claimToken(worker: string): string {
  return `${worker}/${randomUUID().slice(0, 8)}`;
}

/** SQL: the condition under which a row of `table` may be claimed (`$lease` is seconds). */
export function claimableSql(leaseParam: string): string {
  return `(state = 'queued' and run_after <= now())
       or (state = 'running' and locked_at < now() - make_interval(secs => ${leaseParam}))`;
}

export interface HeldLease {
  /** Whether the lease was found taken over (by a renewal or `check`). */
  readonly lost: boolean;
  /** Asks the database now: still ours? */
  check(): Promise<boolean>;
  stop(): void;
  /**
   * Gives the job back to the queue now (a drain's deadline, docs/deploy.md): `queued`, due at
   * once, `locked_by` cleared, and its claim not counted (`attempts - 1`: a node stopped for a
   * deploy is not a worker that died on the job, which `attempts` counts towards failing it).
   * Fenced by the token: true only if the job was still this claim's. From then on the lease
   * counts as lost, so the holder's next step (a stage, an upload, its end) writes nothing.
   * `extra.set` adds assignments to the job row; `extra.cte` adds statements as further CTEs
   * reading `back(track_id)` (the job handed back), in the same statement.
   */
  handBack(extra?: { set?: string; cte?: string }): Promise<boolean>;
}

/**
 * Renews a claimed job's lease every quarter lease while the work runs, whatever the work
 * reports (a long stage reports nothing).
 */
export function holdLease(
  db: Database,
  table: JobTable,
  trackId: string,
  token: string,
  leaseMs: number,
): HeldLease {
  let lost = false;
  const renew = async () => {
    if (lost) return false;
    // table and its key are constants, never input.
    const result = await db.query(
      `update public.${table} set locked_at = now()
        where ${KEY[table]} = $1 and locked_by = $2 and state = 'running'`,
      [trackId, token],
    );
    if (result.affectedRows === 0) lost = true;
    return !lost;
  };
  const timer = setInterval(() => void renew().catch(() => undefined), leaseMs / 4);
  timer.unref();
  return {
    get lost() {
      return lost;
    },
    check: renew,
    stop: () => clearInterval(timer),
    async handBack(extra = {}) {
      clearInterval(timer);
      lost = true;
      const { rows } = await db.query(
        `with back as (
           update public.${table}
              set state = 'queued', attempts = greatest(attempts - 1, 0), locked_by = null,
                  run_after = now(), updated_at = now()${extra.set ? `, ${extra.set}` : ''}
            where ${KEY[table]} = $1 and locked_by = $2 and state = 'running'
           returning ${KEY[table]} as track_id)${extra.cte ? `, ${extra.cte}` : ''}
         select track_id from back`,
        [trackId, token],
      );
      return rows.length > 0;
    },
  };
}
