/**
 * Server-side entry used at build time only (server/build/prerender.ts): renders the public
 * pages to HTML so the first paint needs no JavaScript (and search engines see the content).
 * The browser then renders the app over it with createRoot; the markup is identical.
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { App } from './app';
import { createAppRouter } from './create-router';

/**
 * Public routes of spec section 2 and the auth pages: the same for every visitor, so they can be
 * rendered once.
 */
export const PRERENDERED_PATHS = [
  '/',
  '/comparison',
  '/faq',
  '/changelog',
  '/payment-failed',
  '/payment-approved',
  '/terms-of-service',
  '/privacy-policy',
  '/copyright-policy',
  '/community',
  '/cookie-policy',
  '/music-licensing',
  '/accessibility-statement',
  // The auth pages a visitor lands on: their forms stay disabled until hydration (AuthForm), so
  // a submit before it can never send a password (docs/auth.md, "Prerendered auth pages").
  // Not /reset-password and /verify-email: they read the link's tokens or query on the client.
  '/login',
  '/signup',
  '/forgot-password',
] as const;

export interface PrerenderedPage {
  html: string;
  title: string;
}

export async function prerender(path: string): Promise<PrerenderedPage> {
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }));
  await router.load();
  if (router.state.location.pathname !== path) {
    throw new Error(`prerender: ${path} redirected to ${router.state.location.pathname}`);
  }
  const titles = router.state.matches.flatMap((m) =>
    (m.meta ?? []).flatMap((tag) => (tag && 'title' in tag && tag.title ? [tag.title] : [])),
  );
  const html = renderToString(<App router={router} />);
  return { html, title: titles.at(-1) ?? 'Soundloft' };
}
