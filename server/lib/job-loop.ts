/**
 * The polling loop of a database job queue (track processing, stem separation): claims jobs
 * while a slot is free, runs them, looks again after each one ends and every `pollMs` while idle.
 * What a job is, how it is claimed (`for update skip locked`) and run belongs to the caller.
 */
export interface JobLoopOptions<J> {
  /** Jobs at once; 0 claims nothing (another instance works the queue). */
  slots: number;
  pollMs: number;
  /** The next job, claimed; null when none is due. */
  claim: () => Promise<J | null>;
  run: (job: J) => Promise<void>;
  /** Work done on every pass before claiming (housekeeping). */
  beforeClaim?: () => Promise<void>;
  /** Is anything still to do for this instance? (`idle()` waits until not.) */
  pending: () => Promise<boolean>;
  log: (message: string) => void;
  /** Prefix of log lines. */
  label: string;
  /** How a job is named in log lines. */
  nameOf: (job: J) => string;
}

export interface JobLoop {
  /** Look for work now. */
  kick(): void;
  /** Resolves once nothing is pending. */
  idle(): Promise<void>;
  /** Stops claiming and waits for the jobs running. */
  close(): Promise<void>;
}

export function startJobLoop<J>(o: JobLoopOptions<J>): JobLoop {
  const running = new Set<Promise<void>>();
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;

  const tick = async () => {
    await o.beforeClaim?.();
    while (!closed && running.size < o.slots) {
      const job = await o.claim();
      if (!job) break;
      const task = o
        .run(job)
        .catch((error: unknown) => o.log(`${o.label}: ${o.nameOf(job)}: ${String(error)}`))
        .finally(() => {
          running.delete(task);
          kick();
        });
      running.add(task);
    }
  };

  const kick = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = null;
    ticking ??= tick()
      .catch((error: unknown) => o.log(`${o.label}: ${String(error)}`))
      .finally(() => {
        ticking = null;
        if (!closed) {
          timer = setTimeout(kick, o.pollMs);
          timer.unref();
        }
      });
  };

  kick();

  return {
    kick,
    async idle() {
      for (;;) {
        if (ticking) await ticking;
        await Promise.all(running);
        if (!(await o.pending())) return;
        kick();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (ticking) await ticking.catch(() => undefined);
      await Promise.all(running);
    },
  };
}
