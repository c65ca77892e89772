/**
 * The copyright deadlines, on a node that works jobs (docs/trust-and-safety.md § Deadlines): on
 * every pass `public.copyright_tick()` applies the removals and restorations whose deadline (by
 * `app_clock()`) has passed. Several nodes may run it: the tick locks the rows it changes and
 * skips the locked ones. The e-mails those steps queue go out through the one mail outbox
 * (server/mail/outbox.ts), woken by the insert's NOTIFY.
 */
import type { Database } from '../db/database';
import { startJobLoop, type JobLoop } from '../lib/job-loop';

export interface CopyrightJobsOptions {
  db: Database;
  /** How often a node looks (default 2 s). */
  pollMs?: number;
  log?: (message: string) => void;
}

/** Applies the due deadlines now: {removed, restored}. */
export async function copyrightTick(db: Database): Promise<{ removed: number; restored: number }> {
  const { rows } = await db.query<{ r: { removed: number; restored: number } }>(
    'select public.copyright_tick() as r',
  );
  return rows[0]?.r ?? { removed: 0, restored: 0 };
}

/** The deadline pass every `pollMs`, as the housekeeping of a job loop with no queue of its own. */
export function startCopyrightJobs(options: CopyrightJobsOptions): JobLoop {
  const { db } = options;
  const log = options.log ?? ((m: string) => console.info(m));
  return startJobLoop<never>({
    label: 'copyright',
    slots: 0,
    pollMs: options.pollMs ?? 2000,
    log,
    nameOf: () => 'deadlines',
    beforeClaim: async () => {
      const done = await copyrightTick(db);
      if (done.removed || done.restored) {
        log(`copyright: removed ${done.removed}, restored ${done.restored} (deadlines)`);
      }
    },
    claim: async () => null,
    run: async () => undefined,
    pending: async () => false,
  });
}
