import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Imports a code-split chunk; when the import fails because the browser is offline, waits for
 * the `online` event and tries again instead of failing.
 *
 * Once the service worker controls the page every chunk comes from its precache, but on a first
 * visit it installs a few seconds after the page loads (src/app/sw-register.ts). A chunk first
 * needed offline in that window used to reject, React.lazy kept the rejection, and the app's
 * error boundary replaced the whole page ("Failed to fetch dynamically imported module"): seen
 * in CI when signing out offline. Online failures (a chunk gone after a deploy) still reject, so
 * the error boundary offers its reload.
 */
export function importWhenOnline<T>(load: () => Promise<T>): Promise<T> {
  return load().catch((error: unknown) => {
    if (typeof window === 'undefined' || navigator.onLine !== false) throw error;
    return onceOnline().then(() => importWhenOnline(load));
  });
}

/** Resolves at the browser's next `online` event. */
export function onceOnline(): Promise<void> {
  return new Promise((resolve) =>
    window.addEventListener('online', () => resolve(), { once: true }),
  );
}

/** `React.lazy` over {@link importWhenOnline}: offline, it stays in its Suspense fallback. */
// The same bound as React.lazy's own signature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyChunk<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): LazyExoticComponent<T> {
  return lazy(() => importWhenOnline(load));
}
