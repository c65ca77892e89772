/**
 * Front-end weight: the gzip size of the JavaScript each public route really loads in Chromium
 * (module graph, preloads and lazy route chunks included), measured on the production build.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { chromium } from '@playwright/test';
import type { AddressInfo } from 'node:net';
import { gzipSize } from '../server/build/precompress';
import { createApp } from '../server/http/app';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/chromium';
import { PUBLIC_ROUTES } from '../tests/public-routes';

export interface RouteWeight {
  path: string;
  /** gzip bytes of all JS loaded by a fresh visit to this route. */
  totalGzip: number;
  /** The route's own chunks: loaded here but not by the landing page. */
  ownChunks: { file: string; gzip: number }[];
}

export async function measureFrontend(distDir: string): Promise<RouteWeight[]> {
  const app = createApp({ distDir });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const gz = new Map<string, number>();
  const sizeOf = (urlPath: string) => {
    const known = gz.get(urlPath);
    if (known !== undefined) return known;
    const size = gzipSize(readFileSync(join(distDir, urlPath)));
    gz.set(urlPath, size);
    return size;
  };
  try {
    const results: RouteWeight[] = [];
    let landing = new Set<string>();
    for (const route of PUBLIC_ROUTES) {
      // A fresh context per route: no cache, no service worker, the cold first visit.
      const context = await browser.newContext({ serviceWorkers: 'block' });
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on('response', (res) => {
        const url = new URL(res.url());
        if (url.origin === base && url.pathname.endsWith('.js')) scripts.add(url.pathname);
      });
      await page.goto(base + route.path, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await context.close();
      if (route.path === '/') landing = scripts;
      const files = [...scripts];
      results.push({
        path: route.path,
        totalGzip: files.reduce((sum, f) => sum + sizeOf(f), 0),
        ownChunks: files
          .filter((f) => !landing.has(f) || route.path === '/')
          .map((f) => ({ file: f, gzip: sizeOf(f) })),
      });
    }
    return results;
  } finally {
    await browser.close();
    server.close();
  }
}

export function printFrontend(results: RouteWeight[]) {
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const landing = results.find((r) => r.path === '/');
  console.log('\nFront end (gzip, production build, cold visit in Chromium)');
  if (landing) {
    console.log(`  landing page JavaScript: ${kib(landing.totalGzip)} (goal <= 132 KiB)`);
    for (const c of landing.ownChunks.sort((a, b) => b.gzip - a.gzip))
      console.log(`    ${c.file.padEnd(48)} ${kib(c.gzip)}`);
  }
  console.log("  per route: total JS, and the route's own chunks beyond the landing page");
  for (const r of results.filter((x) => x.path !== '/')) {
    const own = r.ownChunks.reduce((s, c) => s + c.gzip, 0);
    console.log(
      `    ${r.path.padEnd(26)} total ${kib(r.totalGzip).padStart(10)}   own ${kib(own).padStart(9)}  (${r.ownChunks.map((c) => c.file.replace('/assets/', '')).join(', ')})`,
    );
  }
}
