/**
 * In-memory sliding-window counters (one process; a restart forgets them). Bounded: the oldest
 * keys are dropped past `maxKeys`, so a flood of distinct keys cannot exhaust memory.
 */
export class SlidingWindowLimiter {
  readonly #hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 50_000,
    private readonly now: () => number = Date.now,
  ) {}

  #recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.#hits.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length === 0) this.#hits.delete(key);
    else this.#hits.set(key, list);
    return list;
  }

  /** True when `key` has used up its allowance in the current window. */
  isLimited(key: string): boolean {
    return this.#recent(key).length >= this.limit;
  }

  /** Seconds until `key` may try again (0 when it may now). */
  retryAfter(key: string): number {
    const list = this.#recent(key);
    if (list.length < this.limit) return 0;
    const oldest = list[list.length - this.limit] ?? this.now();
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  hit(key: string): void {
    const list = this.#recent(key);
    list.push(this.now());
    this.#hits.delete(key); // re-insert: Map order is least recently used first
    this.#hits.set(key, list);
    while (this.#hits.size > this.maxKeys) {
      const oldest = this.#hits.keys().next().value;
      if (oldest === undefined) break;
      this.#hits.delete(oldest);
    }
  }

  reset(key: string): void {
    this.#hits.delete(key);
  }
}
