/**
 * Lighthouse (mobile preset, its default) on the landing page, with Debian's Chromium:
 * performance and accessibility scores plus the main timings, for `npm run bench`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/chromium';
import { startAppServer } from './app-server';

export interface LighthouseFigures {
  path: string;
  scores: Record<string, number>;
  metrics: Record<string, string>;
  failedAudits: string[];
  /** Lighthouse's long tasks (simulated at 4× CPU): script URL and duration in ms. */
  longTasks: { url: string; ms: number }[];
  /** Main-thread time by script (`bootup-time`), ms, scripting and parse/compile. */
  bootup: { url: string; scripting: number; parse: number }[];
}

export interface LighthouseOptions {
  /**
   * Sign this demo account in first (password 'soundloft-demo'), in the same browser profile,
   * and keep its storage: the pages are measured as a returning signed-in user sees them (the
   * session in localStorage, the mirror in IndexedDB). Seeds the demo catalogue.
   */
  signedInAs?: string;
}

/** Logs in through the real form over CDP and waits for the first sync to finish. */
async function signIn(port: number, base: string, email: string) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').and(page.locator('input')).fill('soundloft-demo');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/home/);
    await page
      .getByRole('status')
      .filter({ hasText: 'Synced' })
      .first()
      .waitFor({ timeout: 60_000 });
    await page.close();
  } finally {
    await browser.close().catch(() => undefined);
  }
}

/** The newest seeded track, for page templates '/track/{track}' and '/artist/{artist}'. */
async function sampleTrack(base: string): Promise<{ id: string; artist: string } | null> {
  const { anonKey } = (await (await fetch(`${base}/_dev/config`)).json()) as { anonKey: string };
  const res = await fetch(`${base}/rest/v1/tracks?select=id,artist&order=created_at.desc&limit=1`, {
    headers: { apikey: anonKey },
  });
  const rows = (await res.json()) as { id: string; artist: string }[];
  return rows[0] ?? null;
}

export async function runLighthouse(
  distDir: string,
  paths: string[] = ['/'],
  { signedInAs }: LighthouseOptions = {},
): Promise<LighthouseFigures[]> {
  // The real server (backend included), so app pages find their backend as users' do.
  const server = await startAppServer(distDir, { seed: Boolean(signedInAs) });
  const { base } = server;
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
  try {
    if (signedInAs) await signIn(chrome.port, base, signedInAs);
    const sample = await sampleTrack(base);
    const out: LighthouseFigures[] = [];
    for (const template of paths) {
      const path = template
        .replace('{track}', sample?.id ?? 'none')
        .replace('{artist}', encodeURIComponent(sample?.artist ?? 'none'));
      const result = await lighthouse(base + path, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        disableStorageReset: Boolean(signedInAs),
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
      type Items<T> = { details?: { items?: T[] } } | undefined;
      const longTasks = (
        (lhr.audits['long-tasks'] as Items<{ url: string; duration: number }>)?.details?.items ?? []
      ).map((t) => ({ url: shortUrl(t.url), ms: Math.round(t.duration) }));
      const bootup = (
        (
          lhr.audits['bootup-time'] as Items<{
            url: string;
            scripting: number;
            scriptParseCompile: number;
          }>
        )?.details?.items ?? []
      ).map((b) => ({
        url: shortUrl(b.url),
        scripting: Math.round(b.scripting),
        parse: Math.round(b.scriptParseCompile),
      }));
      // LIGHTHOUSE_JSON=<dir>: keep each report for a closer look (lighthouse-viewer opens it).
      if (process.env.LIGHTHOUSE_JSON) {
        mkdirSync(process.env.LIGHTHOUSE_JSON, { recursive: true });
        const name = path.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'landing';
        writeFileSync(join(process.env.LIGHTHOUSE_JSON, `${name}.json`), JSON.stringify(lhr));
      }
      out.push({ path, scores, metrics, failedAudits, longTasks, bootup });
    }
    return out;
  } finally {
    chrome.kill();
    await server.close();
  }
}

const shortUrl = (url: string) => url.replace(/^https?:\/\/[^/]+/, '') || url;

export function printLighthouse(results: LighthouseFigures[], who = 'a first visit') {
  console.log(`\nLighthouse (mobile preset: throttled 4G, slow CPU), ${who}`);
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
    if (r.longTasks.length) {
      console.log(
        `    long tasks (4× CPU): ${r.longTasks.length}, ${r.longTasks.reduce((s, t) => s + t.ms, 0)} ms: ${r.longTasks
          .map((t) => `${t.ms} ${t.url}`)
          .join(', ')}`,
      );
    }
    if (r.bootup.length) {
      console.log(
        `    script time (4× CPU): ${r.bootup
          .slice(0, 6)
          .map((b) => `${b.url} ${b.scripting}+${b.parse}`)
          .join(', ')}`,
      );
    }
    for (const a of r.failedAudits) console.log(`    failing: ${a}`);
  }
}
