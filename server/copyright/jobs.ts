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

/** How long before the last covered year ends the operators are warned (docs § Business days). */
export const HOLIDAY_WARNING_DAYS = 60;

/**
 * The warning for operators when `public.business_holidays` ends within HOLIDAY_WARNING_DAYS of
 * `now` (or has ended): past its last year, add_business_days counts weekends only, so a
 * deadline can come a day early per missing holiday. Null when the table covers far enough.
 */
export function holidayCoverageWarning(lastYear: number | null, now: Date): string | null {
  const end = Date.UTC((lastYear ?? now.getUTCFullYear() - 1) + 1, 0, 1);
  if (end - now.getTime() > HOLIDAY_WARNING_DAYS * 86_400_000) return null;
  const next = lastYear === null ? now.getUTCFullYear() : lastYear + 1;
  return (
    `copyright: business_holidays ${lastYear === null ? 'is empty' : `covers up to ${lastYear}`}: ` +
    `deadlines from ${next}-01-01 count weekends only (a day early per missing holiday); ` +
    `add the US federal holidays of ${next} (docs/trust-and-safety.md § Business days)`
  );
}

/** The last year `public.business_holidays` covers, and the app clock. */
async function holidayCoverage(db: Database): Promise<{ lastYear: number | null; now: Date }> {
  const { rows } = await db.query<{ last_year: number | null; now: string }>(
    `select (select max(extract(year from day))::int from public.business_holidays) as last_year,
            public.app_clock()::text as now`,
  );
  return { lastYear: rows[0]?.last_year ?? null, now: new Date(rows[0]?.now ?? Date.now()) };
}

/** The deadline pass every `pollMs`, as the housekeeping of a job loop with no queue of its own. */
export function startCopyrightJobs(options: CopyrightJobsOptions): JobLoop {
  const { db } = options;
  const log = options.log ?? ((m: string) => console.info(m));
  // The holiday calendar is looked at once a day per node (a log line for operators).
  let calendarCheckedAt = 0;
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
      if (Date.now() - calendarCheckedAt > 86_400_000) {
        calendarCheckedAt = Date.now();
        const { lastYear, now } = await holidayCoverage(db);
        const warning = holidayCoverageWarning(lastYear, now);
        if (warning) log(warning);
      }
    },
    claim: async () => null,
    run: async () => undefined,
    pending: async () => false,
  });
}
