/**
 * The release of held plays (docs/plays.md 'Held plays'): a new account's listens are held, and
 * `public.release_held_plays` counts them (within the caps of their day) once the account is an
 * hour old with a confirmed e-mail, or refuses them for good when it was banned first. This loop
 * calls it on every node that runs jobs, every `intervalMs`. All of the decision and its safety
 * on several nodes live in that function (rows claimed `for update skip locked`, each row
 * released once in the transaction that credits it); the loop only keeps calling it.
 */
import type { Database } from '../db/database';

/** Every minute: a listener waits at most this long past the hour for the artist's credit. */
export const HELD_PLAYS_INTERVAL_MS = 60_000;
/** Listens decided per call; a full batch is followed by the next at once. */
export const HELD_PLAYS_BATCH = 500;

export interface HeldPlayRelease {
  /** One pass now (until a batch comes back short); resolves to how many listens it decided. */
  runOnce(): Promise<number>;
  close(): Promise<void>;
}

/** One call of the release function: how many held listens it decided. */
export async function releaseHeldPlays(db: Database, limit = HELD_PLAYS_BATCH): Promise<number> {
  const { rows } = await db.query<{ n: number }>('select public.release_held_plays($1) as n', [
    limit,
  ]);
  return Number(rows[0]?.n ?? 0);
}

export function startHeldPlayRelease({
  db,
  intervalMs = HELD_PLAYS_INTERVAL_MS,
  log = (m) => console.error(m),
}: {
  db: Database;
  intervalMs?: number;
  log?: (message: string) => void;
}): HeldPlayRelease {
  let running: Promise<number> | null = null;
  let closed = false;
  const pass = async () => {
    let total = 0;
    for (;;) {
      const n = await releaseHeldPlays(db);
      total += n;
      if (n < HELD_PLAYS_BATCH || closed) return total;
    }
  };
  const runOnce = () => {
    running ??= pass().finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => {
    if (closed) return;
    runOnce().catch((error: unknown) => log(`[plays] releasing held plays: ${String(error)}`));
  }, intervalMs);
  timer.unref();
  return {
    runOnce,
    close: async () => {
      closed = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
