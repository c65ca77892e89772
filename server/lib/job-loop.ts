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
  /**
   * Gives a running job back to its queue (fenced; docs/nodes.md): what `handBack()` does to each
   * job still running. True when the job was still this worker's.
   */
  handBack?: (job: J) => Promise<boolean>;
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
  /** Stops claiming and waits for the jobs running (or until `handBack()` has run). */
  close(): Promise<void>;
  /**
   * A drain's deadline: stops claiming and gives the jobs still running back to the queue at
   * once (their runs write nothing more: fenced); resolves to how many were handed back, and
   * lets `close()` resolve without waiting for those runs.
   */
  handBack(): Promise<number>;
}

export function startJobLoop<J>(o: JobLoopOptions<J>): JobLoop {
  /** The runs in progress, and their jobs. */
  const running = new Map<Promise<void>, J>();
  let closed = false;
  let abandon: () => void = () => undefined;
  const abandoned = new Promise<void>((resolve) => (abandon = resolve));
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
      running.set(task, job);
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
        await Promise.all(running.keys());
        if (!(await o.pending())) return;
        kick();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (ticking) await ticking.catch(() => undefined);
      await Promise.race([Promise.all(running.keys()), abandoned]);
    },
    async handBack() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (ticking) await ticking.catch(() => undefined);
      const back = await Promise.all(
        [...running.values()].map((job) =>
          (o.handBack?.(job) ?? Promise.resolve(false)).then(
            (handed) => {
              if (handed) o.log(`${o.label}: ${o.nameOf(job)} handed back to the queue (drain)`);
              return handed;
            },
            (error: unknown) => {
              o.log(`${o.label}: ${o.nameOf(job)}: hand-back failed: ${String(error)}`);
              return false;
            },
          ),
        ),
      );
      abandon();
      return back.filter(Boolean).length;
    },
  };
}
