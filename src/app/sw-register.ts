import { whenIdle } from '@/lib/when-idle';

/**
 * Registers the service worker (sw/sw.ts) in production builds. When a new version is waiting,
 * `onUpdateReady` receives a function that activates it and reloads once it controls the page.
 * Returns a cleanup function for React effects.
 */
export function registerServiceWorker(onUpdateReady: (apply: () => void) => void): () => void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return () => undefined;
  let cancelled = false;

  const start = async () => {
    const { Workbox } = await import('workbox-window');
    if (cancelled) return;
    const wb = new Workbox('/sw.js', { scope: '/' });
    wb.addEventListener('waiting', () => {
      onUpdateReady(() => {
        wb.addEventListener('controlling', () => window.location.reload());
        wb.messageSkipWaiting();
      });
    });
    await wb.register();
  };

  // Register after the page has loaded, when the main thread is idle (at the latest 2 s later),
  // so neither workbox-window nor the precache download competes with the first paint.
  let cancelIdle = () => {};
  const onLoad = () => {
    cancelIdle = whenIdle(
      () => void start().catch((err: unknown) => console.warn('Service worker', err)),
    );
  };
  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });

  return () => {
    cancelled = true;
    cancelIdle();
    window.removeEventListener('load', onLoad);
  };
}
