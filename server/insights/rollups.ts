/**
 * The insights roll-ups (docs/insights.md): every few minutes a worker node asks PostgreSQL to
 * roll up the UTC days that are over and not rolled up yet (public.refresh_insights_rollups).
 * Safe on several nodes: the function takes an advisory lock and the others return at once;
 * idempotent: a day's rows are replaced and the day marked done in one transaction.
 */
import type { Database } from '../db/database';

export interface InsightsRollups {
  /** Rolls up now (what the timer does); resolves to the number of days rolled up. */
  runOnce: () => Promise<number>;
  close: () => Promise<void>;
}

/** How often a worker looks for days to roll up. */
export const ROLLUP_INTERVAL_MS = 5 * 60_000;

export function startInsightsRollups(
  db: Database,
  {
    intervalMs = ROLLUP_INTERVAL_MS,
    maxDaysPerRun = 3,
    log = (m: string) => console.error(m),
  }: { intervalMs?: number; maxDaysPerRun?: number; log?: (message: string) => void } = {},
): InsightsRollups {
  let running: Promise<number> | null = null;
  let closed = false;
  const runOnce = () => {
    running ??= db
      .query<{ n: number }>('select public.refresh_insights_rollups($1) as n', [maxDaysPerRun])
      .then(
        ({ rows }) => {
          const n = Number(rows[0]?.n ?? 0);
          if (n > 0) log(`insights: rolled up ${n} day(s)`);
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
  // The first look soon after start (a node that was down for days catches up, 3 days a run).
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
