/**
 * Undo steps of the bench sections (servers, child processes, clusters, temp dirs): everything
 * to undo, last first; run on success, error and Ctrl-C alike. Shared by rest and storage.
 */
export class Cleanup {
  readonly #steps: { what: string; fn: () => Promise<void> | void }[] = [];
  add(what: string, fn: () => Promise<void> | void) {
    this.#steps.push({ what, fn });
  }
  #running: Promise<void> | undefined;
  /** Runs every step once; a second caller (signal and finally) waits for the same run. */
  run(): Promise<void> {
    this.#running ??= this.#drain().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }
  async #drain() {
    while (this.#steps.length) {
      const step = this.#steps.pop();
      if (!step) break;
      try {
        await withTimeout(Promise.resolve(step.fn()), 30_000, step.what);
      } catch (error) {
        console.error(`  cleanup: ${step.what} failed: ${(error as Error).message}`);
      }
    }
  }
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
