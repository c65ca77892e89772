import type { BrowserContext, Page, Route } from '@playwright/test';

/** The top bar's sync indicator (Synced, Syncing n, Offline, n failed). */
export const syncIndicator = (page: Page) => page.getByRole('banner').getByRole('status');

const BACKEND = /\/(rest|storage|functions)\/v1\//;

/**
 * Takes the context offline; resolves with the function that brings it back. Chromium's offline
 * emulation let one write through once (CI, 2026-11-25: the page saw the POST fail, the server
 * had the row), so the backend is refused at the route as well: the test's "offline" is
 * offline, and the app's side (navigator.onLine, failed requests) is the same.
 */
export async function goOffline(context: BrowserContext): Promise<() => Promise<void>> {
  const unreachable = (route: Route) => route.abort('internetdisconnected');
  await context.route(BACKEND, unreachable);
  await context.setOffline(true);
  return async () => {
    await context.unroute(BACKEND, unreachable);
    await context.setOffline(false);
  };
}
