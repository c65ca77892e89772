/**
 * A first-in, first-out lock. PGlite is one connection: every top-level statement and every
 * transaction takes this lock, so concurrent requests never interleave inside a transaction.
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();
  #held = 0;

  /** Holders running or waiting (1: one runs, nobody waits). */
  get held(): number {
    return this.#held;
  }

  run<T>(fn: () => Promise<T>): Promise<T> {
    this.#held++;
    const result = this.#tail.then(fn);
    // The next holder waits for this one to settle, whether it succeeded or not.
    const release = () => {
      this.#held--;
    };
    this.#tail = result.then(release, release);
    return result;
  }
}
