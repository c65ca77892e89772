import { HeadContent, Outlet, createRootRoute } from '@tanstack/react-router';
import { pageTitle } from '@/lib/page-title';

export const Route = createRootRoute({
  head: () => ({ meta: [{ title: pageTitle() }] }),
  component: RootLayout,
});

function RootLayout() {
  return (
    <>
      <HeadContent />
      <Outlet />
    </>
  );
}
