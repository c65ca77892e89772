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
import type { RouteHandlerCallbackOptions } from 'workbox-core/types';
import { DOWNLOADS_CACHE, OFFLINE_AUDIO_PREFIX } from '../src/lib/offline-audio';

export const offlineAudioStrategy = new CacheOnly({
  cacheName: DOWNLOADS_CACHE,
  plugins: [new RangeRequestsPlugin()],
  // The key is the path: the element's own query or Vary never decide a hit.
  matchOptions: { ignoreSearch: true, ignoreVary: true },
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
