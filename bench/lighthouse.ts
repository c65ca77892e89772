/**
 * Lighthouse (mobile preset, its default) on the landing page, with Debian's Chromium:
 * performance and accessibility scores plus the main timings, for `npm run bench`.
 */
import { serve } from '@hono/node-server';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { AddressInfo } from 'node:net';
import { startBackend } from '../server/backend';
import { createApp } from '../server/http/app';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/chromium';

export interface LighthouseFigures {
  path: string;
  scores: Record<string, number>;
  metrics: Record<string, string>;
  failedAudits: string[];
}

export async function runLighthouse(
  distDir: string,
  paths: string[] = ['/'],
): Promise<LighthouseFigures[]> {
  // The real server (backend included), so app pages find their backend as users' do.
  let handle: (request: Request) => Response | Promise<Response> = () =>
    new Response(null, { status: 503 });
  const server = serve({ fetch: (request) => handle(request), port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const backend = await startBackend(
    { ...process.env, DATA_DIR: 'memory', SEED: 'none' },
    { publicUrl: base },
  );
  const app = createApp({ distDir, mounts: backend.mounts, devConfig: backend.devConfig });
  handle = (request) => app.fetch(request);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
  try {
    const out: LighthouseFigures[] = [];
    for (const path of paths) {
      const result = await lighthouse(base + path, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      });
      if (!result) throw new Error('Lighthouse returned no result');
      const { lhr } = result;
      const scores = Object.fromEntries(
        Object.entries(lhr.categories).map(([k, c]) => [k, Math.round((c.score ?? 0) * 100)]),
      );
      const metrics = Object.fromEntries(
        [
          'first-contentful-paint',
          'largest-contentful-paint',
          'total-blocking-time',
          'cumulative-layout-shift',
          'speed-index',
        ].map((id) => [id, lhr.audits[id]?.displayValue ?? 'n/a']),
      );
      const failedAudits = Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
        .map((a) => {
          const items =
            (a.details as { items?: { node?: { snippet?: string } }[] } | undefined)?.items ?? [];
          const nodes = items
            .map((i) => i.node?.snippet)
            .filter(Boolean)
            .slice(0, 4);
          return `${a.id}: ${a.title}${nodes.length ? `\n        ${nodes.join('\n        ')}` : ''}`;
        });
      out.push({ path, scores, metrics, failedAudits });
    }
    return out;
  } finally {
    chrome.kill();
    server.close();
    await backend.close();
  }
}

export function printLighthouse(results: LighthouseFigures[]) {
  console.log('\nLighthouse (mobile preset: throttled 4G, slow CPU)');
  for (const r of results) {
    console.log(
      `  ${r.path}: ${Object.entries(r.scores)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    console.log(
      `    ${Object.entries(r.metrics)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    for (const a of r.failedAudits) console.log(`    failing: ${a}`);
  }
}
