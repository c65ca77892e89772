/**
 * Front-end weight of the signed-in app: the gzip size of all JavaScript a signed-in user's
 * cold visit to an app page loads (shell, layout, player, data layer, the page's own chunks).
 * The session comes from a real login; each page is opened in a fresh context with that storage.
 *
 * Two figures per page, both printed. "First paint": every script the visit loads until the
 * network is idle and the page's heading is shown, with the page's `requestIdleCallback`
 * callbacks held back, so the split does not depend on when the browser happens to be idle
 * (under load a 2 s idle timeout fires during the visit). "At idle": what those callbacks then
 * fetch (the audio engine, storage-js, the row menu, Realtime), watched for a few seconds more.
 * The goal applies to the first figure; the second is what the same visit adds right after.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { gzipSize } from '../server/build/precompress';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/chromium';
import { startAppServer } from './app-server';

export interface AppPageWeight {
  path: string;
  totalGzip: number;
  chunks: { file: string; gzip: number }[];
  /** Scripts the page's idle callbacks load (audio engine, row menu, Realtime): not in the total. */
  later: { file: string; gzip: number }[];
}

/**
 * Installed before the app's code: `requestIdleCallback` callbacks wait in a queue until
 * `__releaseIdle()`, then go to the real one (cancel works before and after).
 */
function holdIdleCallbacks() {
  type Held = { cb: IdleRequestCallback; options?: IdleRequestOptions; real?: number };
  const w = window as Window & { __releaseIdle?: () => void };
  const request = w.requestIdleCallback.bind(w);
  const cancel = w.cancelIdleCallback.bind(w);
  const held = new Map<number, Held>();
  let released = false;
  let next = 1_000_000;
  w.requestIdleCallback = (cb, options) => {
    if (released) return request(cb, options);
    const id = next++;
    held.set(id, { cb, options });
    return id;
  };
  w.cancelIdleCallback = (id) => {
    const entry = held.get(id);
    if (!entry) return cancel(id);
    held.delete(id);
    if (entry.real !== undefined) cancel(entry.real);
  };
  w.__releaseIdle = () => {
    released = true;
    for (const entry of held.values()) entry.real = request(entry.cb, entry.options);
  };
}

/** How long the bench keeps watching after the page is up, for what it loads in idle time. */
const LATER_MS = 8000;

export async function measureAppPages(
  distDir: string,
  paths: string[],
  email = 'listener@soundloft.local',
): Promise<AppPageWeight[]> {
  const server = await startAppServer(distDir, { seed: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const login = await browser.newContext({ serviceWorkers: 'block' });
    const page = await login.newPage();
    await page.goto(`${server.base}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').and(page.locator('input')).fill('soundloft-demo');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/home/);
    const storageState = await login.storageState();
    await login.close();

    const out: AppPageWeight[] = [];
    for (const path of paths) {
      const context = await browser.newContext({ serviceWorkers: 'block', storageState });
      const tab = await context.newPage();
      await tab.addInitScript(holdIdleCallbacks);
      const scripts = new Set<string>();
      tab.on('response', (res) => {
        const url = new URL(res.url());
        if (url.origin === server.base && url.pathname.endsWith('.js')) scripts.add(url.pathname);
      });
      await tab.goto(server.base + path, { waitUntil: 'networkidle' });
      await tab.getByRole('heading', { level: 1 }).first().waitFor();
      const firstVisit = new Set(scripts);
      await tab.evaluate(() =>
        (window as Window & { __releaseIdle?: () => void }).__releaseIdle?.(),
      );
      await tab.waitForTimeout(LATER_MS);
      await context.close();
      const weigh = (files: string[]) =>
        files
          .map((file) => ({ file, gzip: gzipSize(readFileSync(join(distDir, file))) }))
          .sort((a, b) => b.gzip - a.gzip);
      const chunks = weigh([...firstVisit]);
      const later = weigh([...scripts].filter((f) => !firstVisit.has(f)));
      out.push({ path, totalGzip: chunks.reduce((sum, c) => sum + c.gzip, 0), chunks, later });
    }
    return out;
  } finally {
    await browser.close();
    await server.close();
  }
}

export function printAppPages(results: AppPageWeight[]) {
  console.log(
    '\nSigned-in app pages (gzip JS of a cold visit with a session, first paint with idle callbacks held; goal <= 250 KiB)',
  );
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  for (const r of results) {
    console.log(`  ${r.path.padEnd(26)} ${kib(r.totalGzip).padStart(10)}`);
    const big = r.chunks.filter((c) => c.gzip >= 4096);
    const small = r.chunks.filter((c) => c.gzip < 4096);
    const smallTotal = small.reduce((sum, c) => sum + c.gzip, 0);
    console.log(
      `    ${big.map((c) => `${c.file.replace('/assets/', '')} ${kib(c.gzip)}`).join(', ')}` +
        (small.length > 0 ? `, and ${small.length} files under 4 KiB: ${kib(smallTotal)}` : ''),
    );
    if (r.later.length > 0) {
      const total = r.later.reduce((sum, c) => sum + c.gzip, 0);
      console.log(
        `    then at idle: ${kib(total)}, ${kib(r.totalGzip + total)} in all (${r.later.map((c) => `${c.file.replace('/assets/', '')} ${kib(c.gzip)}`).join(', ')})`,
      );
    }
  }
}
