/**
 * The service worker's route for downloaded audio (docs/offline.md): `/offline-audio/<user>/<track>`
 * is answered from the downloads cache only, never the network. The cache holds each file whole;
 * an `<audio>` element asks for byte ranges (to start and to seek), and Workbox's
 * RangeRequestsPlugin cuts the 206 answer out of the cached file. A file that is not downloaded
 * is a plain 404, so the player's load error skips it instead of waiting on a network it lacks.
 */
import { registerRoute } from 'workbox-routing';
import { CacheOnly } from 'workbox-strategies';
import { RangeRequestsPlugin } from 'workbox-range-requests';
import type { RouteHandlerCallbackOptions, WorkboxPlugin } from 'workbox-core/types';
import { DOWNLOADS_CACHE, OFFLINE_AUDIO_PREFIX } from '../src/lib/offline-audio';

/**
 * The key is the path: the element's own query never decides a hit. The lookup is by that exact
 * key rather than with `ignoreSearch`, which Chromium answers by opening every entry of the cache
 * (the downloads and the parts of unfinished ones) on each of the element's range requests.
 */
const pathKey: WorkboxPlugin = {
  cacheKeyWillBeUsed: ({ request }) => {
    const url = new URL(request.url);
    if (!url.search && !url.hash) return Promise.resolve(request);
    // With its headers: the range plugin reads the Range from the key's request.
    return Promise.resolve(new Request(url.origin + url.pathname, { headers: request.headers }));
  },
};

export const offlineAudioStrategy = new CacheOnly({
  cacheName: DOWNLOADS_CACHE,
  plugins: [pathKey, new RangeRequestsPlugin()],
  // Vary never decides a hit either.
  matchOptions: { ignoreVary: true },
});

export const NOT_DOWNLOADED = 'This track is not downloaded.';

export async function serveOfflineAudio(options: RouteHandlerCallbackOptions): Promise<Response> {
  try {
    return await offlineAudioStrategy.handle(options);
  } catch {
    return new Response(NOT_DOWNLOADED, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
}

export function matchesOfflineAudio(url: URL, origin: string): boolean {
  return url.origin === origin && url.pathname.startsWith(OFFLINE_AUDIO_PREFIX);
}

export function registerOfflineAudioRoute(origin: string): void {
  registerRoute(({ url }) => matchesOfflineAudio(url, origin), serveOfflineAudio);
}
