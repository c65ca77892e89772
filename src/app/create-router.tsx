import {
  Navigate,
  createRouter,
  useRouter,
  type ErrorComponentProps,
  type RouterHistory,
} from '@tanstack/react-router';
import { createElement, use, type ComponentType } from 'react';
import { retryWhileOffline } from '@/lib/retry-while-offline';
import { routeTree } from '../routeTree.gen';
import { CrashFallback } from './crash-fallback';

/**
 * A page's code that could not be loaded (a dropped connection, or a deploy that replaced the
 * chunk). Some browsers keep a failed dynamic import in their module map, so importing the same
 * URL again fails again without a request: only a fresh document loads it for sure (Chromium
 * tries again; offline, `splitPartsWaitForNetwork` below waits for the network instead).
 */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  );
}

function RouteCrash({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <CrashFallback
      error={error}
      onReset={() => {
        if (isChunkLoadError(error)) {
          window.location.reload();
          return;
        }
        reset();
        void router.invalidate();
      }}
    />
  );
}

/** Spec: any unknown path redirects to /. */
function RedirectHome() {
  return <Navigate to="/" replace />;
}

/** A code-split route part as `lazyRouteComponent` makes it: `preload` is gone once loaded. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type SplitComponent = ComponentType<any> & { preload?: () => Promise<void> };

/**
 * A route's code first needed offline waits for the network instead of reloading the page.
 *
 * TanStack Router's `lazyRouteComponent` answers a chunk that fails to load with
 * `window.location.reload()` (its cure for a deploy that replaced the chunks). On a first visit,
 * before the service worker has precached the chunks, a link followed offline did exactly that:
 * the browser's offline error page replaced the app, and stayed after the network came back
 * (session 13). Each split part is wrapped: its preload (which the router awaits before it
 * navigates) is tried again when the browser is back online, so an offline click leaves the
 * current page as it is and the new one opens with the network. A failure while online still
 * reaches the original and its reload. Browser only: in the prerenderer `preload` never clears.
 */
export function splitPartsWaitForNetwork(routes: Iterable<{ options: object }>): void {
  const types = ['component', 'pendingComponent', 'errorComponent', 'notFoundComponent'] as const;
  for (const route of routes) {
    const options = route.options as Partial<Record<(typeof types)[number], SplitComponent>>;
    for (const type of types) {
      const original = options[type];
      if (original?.preload) options[type] = waitingForNetwork(original);
    }
  }
}

function waitingForNetwork(original: SplitComponent): SplitComponent {
  let pending: Promise<void> | null = null;
  let settled = false;
  const load = () =>
    (pending ??= retryWhileOffline(
      async () => original.preload?.(),
      // The preload resolves when its import failed too, and then stays in place.
      () => original.preload !== undefined,
    ).finally(() => {
      settled = true;
      pending = null;
    }));
  const Waiting: SplitComponent = (props: object) => {
    if (original.preload && !settled) use(load());
    return createElement(original, props);
  };
  Waiting.preload = load;
  return Waiting;
}

/** The app's router; the browser uses its history, the prerenderer a memory history. */
export function createAppRouter(history?: RouterHistory) {
  const router = createRouter({
    routeTree,
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    defaultErrorComponent: RouteCrash,
    defaultNotFoundComponent: RedirectHome,
    notFoundMode: 'root',
    scrollRestoration: true,
  });
  if (typeof window !== 'undefined') splitPartsWaitForNetwork(Object.values(router.routesById));
  return router;
}
