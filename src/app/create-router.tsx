import {
  Navigate,
  createRouter,
  useRouter,
  type ErrorComponentProps,
  type RouterHistory,
} from '@tanstack/react-router';
import { routeTree } from '../routeTree.gen';
import { CrashFallback } from './crash-fallback';

function RouteCrash({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <CrashFallback
      error={error}
      onReset={() => {
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
