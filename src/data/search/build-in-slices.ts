/**
 * Runs a resumable build (the search index) on the main thread in slices of a few
 * milliseconds, starting when the browser is idle, so no slice becomes a long task (over 50 ms)
 * and input, rendering and the live queries go first. docs/search.md.
 */

/** Work per slice: well under the 50 ms of a long task, even on a slow phone. */
export const SLICE_MS = 8;

export interface SliceBuild {
  /** Does more work until `shouldYield()` says to stop; true when finished. */
  step(shouldYield: () => boolean): boolean;
}

type IdleWindow = Window & {
  requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
};

/** Starts the build at the next idle moment; returns a cancel (a later build may resume it). */
export function buildInSlices(build: SliceBuild, onDone?: () => void): () => void {
  const w = (typeof window === 'undefined' ? undefined : window) as IdleWindow | undefined;
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  const slice = () => {
    if (cancelled) return;
    const start = performance.now();
    if (build.step(() => performance.now() - start >= SLICE_MS)) onDone?.();
    else timer = setTimeout(slice, 0);
  };
  if (w?.requestIdleCallback) idle = w.requestIdleCallback(slice, { timeout: 1000 });
  else timer = setTimeout(slice, 50);
  return () => {
    cancelled = true;
    if (timer !== undefined) clearTimeout(timer);
    if (idle !== undefined) w?.cancelIdleCallback?.(idle);
  };
}
