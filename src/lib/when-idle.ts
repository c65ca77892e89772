/**
 * Runs `task` when the browser is idle (at the latest after `timeout` ms), or after a timeout
 * where requestIdleCallback does not exist (Safari). Returns a function that cancels it.
 */
export function whenIdle(task: () => void, timeout = 2000): () => void {
  const w = globalThis as typeof globalThis & {
    requestIdleCallback?: (cb: () => void, options?: { timeout: number }) => number;
    cancelIdleCallback?: (handle: number) => void;
  };
  if (w.requestIdleCallback && w.cancelIdleCallback) {
    const handle = w.requestIdleCallback(task, { timeout });
    return () => w.cancelIdleCallback?.(handle);
  }
  const handle = setTimeout(task, Math.min(timeout, 200));
  return () => clearTimeout(handle);
}
