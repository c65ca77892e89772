import { Outlet, createRootRoute, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { pageTitle } from '@/lib/page-title';

export const Route = createRootRoute({
  head: () => ({ meta: [{ title: pageTitle() }] }),
  component: RootLayout,
});

/**
 * Keeps document.title in step with the deepest route's `head` title. It renders nothing, so a
 * prerendered page (whose title is already in its <head>) hydrates without a mismatch.
 */
function DocumentTitle() {
  const title = useRouterState({
    select: (state) =>
      state.matches
        .flatMap((m) => m.meta ?? [])
        .flatMap((tag) => (tag && 'title' in tag && tag.title ? [tag.title] : []))
        .at(-1),
  });
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
  return null;
}

/**
 * Marks the document once React has rendered (or hydrated) the app: a prerendered page shows
 * its controls before their handlers are attached, and a click in that moment does nothing.
 * Tests wait for `html[data-app-ready]` before pressing a control on such a page.
 */
function useAppReady() {
  useEffect(() => {
    document.documentElement.dataset.appReady = 'true';
  }, []);
}

function RootLayout() {
  useAppReady();
  return (
    <>
      <DocumentTitle />
      <Outlet />
    </>
  );
}
