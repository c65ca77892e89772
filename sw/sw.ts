/// <reference lib="webworker" />
/**
 * Soundloft's service worker, built by vite-plugin-pwa (injectManifest).
 * - precaches the app shell and every route chunk, so a repeat visit works offline;
 * - answers navigations with the cached index.html (SPA), except for the backend's paths;
 * - waits for the page to ask before taking over (the update prompt), then claims clients.
 */
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

/** Paths the embedded server (or Supabase) answers: never served from the app shell. */
const BACKEND_PATHS = [/^\/(auth|rest|storage|functions)\/v1(\/|$)/, /^\/_dev(\/|$)/];

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: BACKEND_PATHS }),
);

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});
