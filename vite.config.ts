import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import LongFilesFirst from './tests/support/long-files-first';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { prerenderPlugin } from './server/build/vite-plugin-prerender.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
/** manifest.webmanifest at the top level is the one source of the web app manifest. */
const manifest = JSON.parse(
  readFileSync(new URL('./manifest.webmanifest', import.meta.url), 'utf8'),
) as Partial<ManifestOptions>;

/** The embedded server (npm start) that `npm run dev` proxies API calls to. */
const backend = process.env.SOUNDLOFT_BACKEND ?? `http://localhost:${process.env.PORT ?? 8787}`;
const apiPaths = [
  '/auth/v1',
  '/rest/v1',
  '/storage/v1',
  '/functions/v1',
  '/realtime/v1',
  '/_dev',
  '/_app',
  '/_stripe',
];

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { '@': `${root}src` } },
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // The landing page is the first paint of most visits: keep it in the entry chunk so it
      // renders without a second round trip. Every other route stays lazy.
      codeSplittingOptions: {
        splitBehavior: ({ routeId }) => (routeId === '/' ? [] : undefined),
      },
      routesDirectory: './src/routes',
      generatedRouteTree: './src/routeTree.gen.ts',
      quoteStyle: 'single',
    }),
    react(),
    // The nested server build of the prerenderer needs neither the service worker nor itself.
    !isSsrBuild && prerenderPlugin({ entry: 'src/app/prerender.tsx' }),
    !isSsrBuild &&
      VitePWA({
        strategies: 'injectManifest',
        srcDir: 'sw',
        filename: 'sw.ts',
        registerType: 'prompt',
        injectRegister: false,
        manifest,
        includeAssets: ['favicon.svg', 'icons/*.png'],
        injectManifest: {
          globPatterns: ['**/*.{js,css,html,woff2,png,svg,webmanifest}'],
        },
        devOptions: { enabled: false },
      }),
  ],
  server: {
    proxy: Object.fromEntries(
      apiPaths.map((p) => [p, { target: backend, changeOrigin: true, ws: p === '/realtime/v1' }]),
    ),
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 400,
    // No preload helper: its one <link rel=modulepreload> per dependency of a lazy chunk was the
    // signed-in pages' largest blocking cost (docs/architecture.md, "no modulepreload links").
    modulePreload: false,
    // Everything the entry imports statically (the landing page, React, Mantine's core, the
    // router) in one chunk: left to automatic chunking, the modules lazy routes share with the
    // entry were cut into a dozen small chunks, each compressed on its own (docs/architecture.md,
    // "Watch the entry chunk").
    rolldownOptions: isSsrBuild
      ? {}
      : { output: { codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] } } },
  },
  test: {
    // Integration tests run against a real database and server: on a busy 2-core machine a
    // healthy test can take longer than vitest's 5 s default. Timing never decides a test.
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // Vitest's default is one worker per core minus one: a single worker on this 2-core machine,
    // while most files wait on a server, a database or a child process. Three workers took the
    // unit suite from 420 s (one, quiet) to 347 s under a load of 6–15 (docs/architecture.md).
    maxWorkers: 3,
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          // happy-dom loads in about half of jsdom's time (each file sets up its own). Files
          // that need no browser say `// @vitest-environment node`; the sync tests and the
          // download manager say `jsdom`: they fetch a loopback server, which happy-dom's
          // own fetch refuses as cross-origin (docs/architecture.md, "Unit suite run time").
          environment: 'happy-dom',
          // tests/sync: the sync engine in the browser-like project against the real REST
          // server (tests/support/sync runs it in a child process).
          include: ['src/**/*.test.{ts,tsx}', 'tests/sync/**/*.test.ts'],
          setupFiles: ['./src/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          // npm run test:faults (docs/faults.md), not part of test:unit: the sync engine behind
          // a fault-injecting proxy, in the browser-like project like tests/sync.
          name: 'faults-sync',
          environment: 'jsdom',
          include: ['tests/faults/sync/**/*.test.ts'],
          setupFiles: ['./src/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          // npm run test:faults: the server itself killed under load (Node).
          name: 'faults-server',
          environment: 'node',
          include: ['tests/faults/server/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          // npm run test:postgres only (it needs PostgreSQL): two web nodes and workers as
          // separate processes on one database and one S3 endpoint (docs/deploy.md).
          name: 'multinode',
          environment: 'node',
          include: ['tests/multinode/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'server/**/*.test.ts',
            'supabase/**/*.test.ts',
            'scripts/**/*.test.ts',
            'tests/lint/**/*.test.ts',
            // The ranked search's relevance set over the demo catalogue (docs/search.md).
            'tests/search/**/*.test.ts',
            // The service worker's routes: Workbox on undici's Cache Storage (sw/offline-audio.test.ts).
            'sw/**/*.test.ts',
          ],
        },
      },
    ],
  },
}));
