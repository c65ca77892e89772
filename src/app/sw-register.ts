import { whenIdle } from '@/lib/when-idle';
import {
  onServiceWorkerUpdate,
  serviceWorkerSupported,
  startServiceWorker,
} from '@/lib/service-worker';

/**
 * Registers the service worker (sw/sw.ts, src/lib/service-worker.ts) in production builds. When a
 * new version is waiting, `onUpdateReady` receives a function that activates it and reloads once
 * it controls the page. Returns a cleanup function for React effects.
 */
export function registerServiceWorker(onUpdateReady: (apply: () => void) => void): () => void {
  if (!serviceWorkerSupported()) return () => undefined;
  const unsubscribe = onServiceWorkerUpdate(onUpdateReady);

  // Register after the page has loaded, when the main thread is idle (at the latest 2 s later),
  // so neither workbox-window nor the precache download competes with the first paint. A
  // download starts it at once (whenShellOffline: the app must open offline too).
  let cancelIdle = () => {};
  const onLoad = () => {
    cancelIdle = whenIdle(
      () => void startServiceWorker().catch((err: unknown) => console.warn('Service worker', err)),
    );
  };
  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });

  return () => {
    unsubscribe();
    cancelIdle();
    window.removeEventListener('load', onLoad);
  };
}
