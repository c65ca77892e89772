import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { retryWhileOffline } from './retry-while-offline';

/**
 * `React.lazy` over an import that, failing because the browser is offline, waits for the
 * `online` event and tries again ({@link retryWhileOffline}): offline, it stays in its Suspense
 * fallback instead of failing.
 *
 * Once the service worker controls the page every chunk comes from its precache, but on a first
 * visit it installs a few seconds after the page loads (src/app/sw-register.ts). A chunk first
 * needed offline in that window used to reject, React.lazy kept the rejection, and the app's
 * error boundary replaced the whole page ("Failed to fetch dynamically imported module"): seen
 * in CI when signing out offline. Online failures (a chunk gone after a deploy) still reject, so
 * the error boundary offers its reload.
 */
// The same bound as React.lazy's own signature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyChunk<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): LazyExoticComponent<T> {
  return lazy(() => retryWhileOffline(load));
}
