/// <reference types="vite/client" />
/**
 * The app's one registration of the service worker (sw/sw.ts, through workbox-window), and the
 * question a download asks of it: does the app itself open offline yet? (docs/offline.md,
 * "The app shell offline".) Production builds only: the dev server has no worker.
 */

type UpdateListener = (apply: () => void) => void;

const updateListeners = new Set<UpdateListener>();
/** The activation of the version waiting, once one waits (late listeners get it too). */
let waitingUpdate: (() => void) | null = null;
let registering: Promise<void> | null = null;

/** Whether this page has a service worker at all (a production build in a browser with one). */
export function serviceWorkerSupported(): boolean {
  return !import.meta.env.DEV && typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
}

/**
 * Registers /sw.js once (later calls share the first; a failed one is tried again by the next
 * call). On a first visit this installs the worker, which precaches the shell (~3 MB).
 */
export function startServiceWorker(): Promise<void> {
  if (!serviceWorkerSupported()) return Promise.resolve();
  registering ??= (async () => {
    const { Workbox } = await import('workbox-window');
    const wb = new Workbox('/sw.js', { scope: '/' });
    wb.addEventListener('waiting', () => {
      waitingUpdate = () => {
        wb.addEventListener('controlling', () => window.location.reload());
        wb.messageSkipWaiting();
      };
      for (const listener of updateListeners) listener(waitingUpdate);
    });
    await wb.register();
  })().catch((error: unknown) => {
    registering = null;
    throw error;
  });
  return registering;
}

/**
 * `listener` receives a function that activates a new version once one is waiting (and reloads
 * when it controls the page). Returns the unsubscribe.
 */
export function onServiceWorkerUpdate(listener: UpdateListener): () => void {
  updateListeners.add(listener);
  if (waitingUpdate) listener(waitingUpdate);
  return () => updateListeners.delete(listener);
}

/** Thrown when the worker's install failed (its precache could not be fetched: offline). */
export class ShellNotOfflineError extends Error {
  constructor() {
    super('The app could not be saved for offline use.');
    this.name = 'ShellNotOfflineError';
  }
}

/**
 * Resolves once the app shell opens offline: a service worker is active (its install, which
 * precaches the shell and every route, has finished) and controls this page (its reload is
 * answered by the worker). Starts the registration now if the page has not yet (it waits for an
 * idle moment after load). Rejects with ShellNotOfflineError when the install fails. Resolves at
 * once where there is no worker (dev, or a browser without one: nothing better to wait for).
 */
export async function whenShellOffline(): Promise<void> {
  if (!serviceWorkerSupported()) return;
  await startServiceWorker();
  const container = navigator.serviceWorker;
  const registration = await Promise.race([
    container.ready,
    installFailure(await container.getRegistration('/')),
  ]);
  if (container.controller) return;
  const controlled = new Promise<void>((resolve) =>
    container.addEventListener('controllerchange', () => resolve(), { once: true }),
  );
  // The worker claims the open pages when it activates; a page loaded past it (a hard reload)
  // stays uncontrolled until it asks (sw/sw.ts answers CLAIM).
  registration.active?.postMessage({ type: 'CLAIM' });
  await controlled;
}

/** Rejects when the worker being installed becomes redundant (its install failed). */
function installFailure(registration: ServiceWorkerRegistration | undefined): Promise<never> {
  return new Promise<never>((_, reject) => {
    const worker = registration?.installing;
    if (!worker) return; // nothing installing: `ready` answers
    worker.addEventListener('statechange', () => {
      if (worker.state === 'redundant' && !registration?.active) reject(new ShellNotOfflineError());
    });
  });
}
