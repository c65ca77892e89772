/// <reference lib="webworker" />
/**
 * Soundloft's service worker, built by vite-plugin-pwa (injectManifest).
 * - precaches the app shell, every route chunk and the prerendered public pages, so a repeat
 *   visit works offline;
 * - answers a navigation with its prerendered page when there is one, else with the shell
 *   (SPA), never for the backend's paths;
 * - answers `/offline-audio/...` from the downloads cache, with Range (206), never evicted by
 *   the precache's updates (sw/offline-audio.ts, docs/offline.md);
 * - waits for the page to ask before taking over (the update prompt), then claims clients; a
 *   page that must open offline (a download) asks to be claimed (CLAIM).
 */
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  matchPrecache,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { prerenderFileFor } from '../server/build/prerender-paths';
import { registerOfflineAudioRoute } from './offline-audio';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

/** Paths the embedded server (or Supabase) answers: never served from the app shell. */
const BACKEND_PATHS = [
  /^\/(auth|rest|storage|functions)\/v1(\/|$)/,
  /^\/_dev(\/|$)/,
  /^\/_app(\/|$)/,
  // The local payment sandbox (docs/payments.md): Stripe's API paths and the hosted checkout.
  /^\/v1(\/|$)/,
  /^\/_stripe(\/|$)/,
];

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerOfflineAudioRoute(self.location.origin);

const shell = createHandlerBoundToURL('/index.html');
registerRoute(
  new NavigationRoute(
    async (options) => {
      const { pathname, search } = new URL(options.request.url);
      // Prerendered pages only for query-less URLs, as the server does.
      const page = search ? undefined : await matchPrecache(`/${prerenderFileFor(pathname)}`);
      return page ?? shell(options);
    },
    { denylist: [...BACKEND_PATHS, /^\/offline-audio\//] },
  ),
);

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  // A page that must open offline (a download, src/lib/service-worker.ts) and was loaded past
  // this worker (a hard reload, or before it activated) asks to be controlled.
  if (data?.type === 'CLAIM') event.waitUntil(self.clients.claim());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});
