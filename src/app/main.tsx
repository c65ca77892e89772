import '@fontsource-variable/inter/wght.css';
import '@mantine/core/styles.css';
import './global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { router } from './router';

const container = document.getElementById('root');
if (!container) throw new Error('Soundloft: #root element missing from index.html');

const app = (
  <StrictMode>
    <App router={router} />
  </StrictMode>
);

async function start(root: HTMLElement) {
  if (root.hasChildNodes()) {
    // A public page prerendered at build time: load the route's code first so the first client
    // render matches the HTML, then hydrate it in place (no second paint of the same content).
    await router.load();
    // Render the route tree the way the server did (TanStack Router omits its client-only
    // Suspense boundary when `router.ssr` is set, as its own hydration does).
    (router as { ssr?: object }).ssr ??= { manifest: undefined };
    startTransition(() => {
      hydrateRoot(root, app, {
        onRecoverableError: (error) => console.warn('Soundloft: rendered the page afresh', error),
      });
    });
    return;
  }
  // The bare shell (app routes, offline fallback): render in a transition, in time slices, so
  // the first render never blocks input for long.
  startTransition(() => createRoot(root).render(app));
}

void start(container);
