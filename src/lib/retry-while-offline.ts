/**
 * Runs `attempt`; while it fails and the browser is offline, waits for the `online` event and
 * runs it again. A failure while online (or outside a browser) is passed on at once: a rejection
 * rejects, a resolved failure resolves.
 *
 * `failed` says whether a value the attempt resolved with is a failure too: TanStack Router's
 * `preload` resolves when its import failed and leaves itself in place (src/app/create-router.tsx).
 * Used for code-split chunks first needed offline, before the service worker has precached them
 * (src/lib/lazy-chunk.ts, src/app/create-router.tsx; docs/offline.md).
 */
export async function retryWhileOffline<T>(
  attempt: () => Promise<T>,
  failed: (value: T) => boolean = () => false,
): Promise<T> {
  for (;;) {
    try {
      const value = await attempt();
      if (!failed(value) || !offline()) return value;
    } catch (error) {
      if (!offline()) throw error;
    }
    await onceOnline();
  }
}

const offline = () => typeof window !== 'undefined' && navigator.onLine === false;

/** Resolves at the browser's next `online` event. */
function onceOnline(): Promise<void> {
  return new Promise((resolve) =>
    window.addEventListener('online', () => resolve(), { once: true }),
  );
}
