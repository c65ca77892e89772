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

  // Register after the page has loaded so the precache download never competes with first paint.
  const onLoad = () => void start().catch((err: unknown) => console.warn('Service worker', err));
  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });

  return () => {
    cancelled = true;
    window.removeEventListener('load', onLoad);
  };
}
