import {
  Navigate,
  createRouter,
  useRouter,
  type ErrorComponentProps,
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

export const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  defaultErrorComponent: RouteCrash,
  defaultNotFoundComponent: RedirectHome,
  notFoundMode: 'root',
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
