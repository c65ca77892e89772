/**
 * Calls with the same key while one is running share its promise: three components mounting
 * together ask the server once, not three times. A call after it settled runs again.
 */
export function createInFlight() {
  const running = new Map<string, Promise<unknown>>();
  return function share<T>(key: string, run: () => Promise<T>): Promise<T> {
    const current = running.get(key) as Promise<T> | undefined;
    if (current) return current;
    const next = run().finally(() => running.delete(key));
    running.set(key, next);
    return next;
  };
}
