/**
 * The insights roll-ups (docs/insights.md): every few minutes a worker node asks PostgreSQL to
 * roll up the UTC hours that are over and not rolled up yet (public.refresh_insights_rollups),
 * so the page's live part reads at most the last hour and a half of raw evidence. Safe on several
 * nodes: the function takes an advisory lock and the others return at once; once only: an hour's
 * figures are added to its day's rows and the hour marked done in one transaction.
 */
import type { Database } from '../db/database';

export interface InsightsRollups {
  /** Rolls up now (what the timer does); resolves to the number of hours rolled up. */
  runOnce: () => Promise<number>;
  close: () => Promise<void>;
}

/** How often a worker looks for days to roll up. */
export const ROLLUP_INTERVAL_MS = 5 * 60_000;

export function startInsightsRollups(
  db: Database,
  {
    intervalMs = ROLLUP_INTERVAL_MS,
    maxHoursPerRun = 72,
    log = (m: string) => console.error(m),
  }: { intervalMs?: number; maxHoursPerRun?: number; log?: (message: string) => void } = {},
): InsightsRollups {
  let running: Promise<number> | null = null;
  let closed = false;
  const runOnce = () => {
    running ??= db
      .query<{ n: number }>('select public.refresh_insights_rollups($1) as n', [maxHoursPerRun])
      .then(
        ({ rows }) => {
          const n = Number(rows[0]?.n ?? 0);
          if (n > 0) log(`insights: rolled up ${n} hour(s)`);
          return n;
        },
        (error: unknown) => {
          log(`insights: roll-up failed: ${String(error)}`);
          return 0;
        },
      )
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => {
    if (!closed) void runOnce();
  }, intervalMs);
  timer.unref();
  // The first look soon after start (a node that was down for days catches up, 72 hours a run).
  const first = setTimeout(() => void runOnce(), Math.min(intervalMs, 10_000));
  first.unref();
  return {
    runOnce,
    async close() {
      closed = true;
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}
