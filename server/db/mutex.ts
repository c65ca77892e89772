/**
 * A first-in, first-out lock. PGlite is one connection: every top-level statement and every
 * transaction takes this lock, so concurrent requests never interleave inside a transaction.
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    // The next holder waits for this one to settle, whether it succeeded or not.
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
