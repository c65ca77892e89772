import {
  Navigate,
  createRouter,
  useRouter,
  type ErrorComponentProps,
  type RouterHistory,
} from '@tanstack/react-router';
import { routeTree } from '../routeTree.gen';
import { CrashFallback } from './crash-fallback';

/**
 * A page's code that could not be loaded (a dropped connection, or a deploy that replaced the
 * chunk). Browsers keep a failed dynamic import in their module map, so importing the same URL
 * again fails again without a request: only a fresh document loads it.
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

/** The app's router; the browser uses its history, the prerenderer a memory history. */
export function createAppRouter(history?: RouterHistory) {
  return createRouter({
    routeTree,
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    defaultErrorComponent: RouteCrash,
    defaultNotFoundComponent: RedirectHome,
    notFoundMode: 'root',
    scrollRestoration: true,
  });
}
