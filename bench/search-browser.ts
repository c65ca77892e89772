/**
 * The browser part of `npm run bench -- search` (issue 33, docs/search.md "In a Web Worker"):
 * the app's search worker in Chromium over a 100,000-track mirror in IndexedDB. Vite builds a
 * small page (bench/search-browser/) that imports the app's search client and worker; the page
 * is served on loopback with a CSP that allows workers from 'self' only. It prints, per
 * keystroke, the main thread's cost (post + receive) and the time to results (p50/p95), then a
 * typing pass (latest keystroke wins). About two to four minutes under load.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/chromium';
import { keystrokes, ms, percentile } from './explore-catalogue';
import { SEARCH_QUERIES } from './search-tracks';
import type { KeystrokeTiming, SearchBench } from './search-browser/types';

const HERE = fileURLToPath(new URL('./search-browser/', import.meta.url));
const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};
/** The app's policy for scripts and workers (server/http/security-headers.ts), minus blob:. */
const CSP = "default-src 'self'; script-src 'self'; worker-src 'self'; connect-src 'self'";

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

function serve(dir: string) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0] as string));
    const file = join(dir, path === '/' ? 'index.html' : path);
    stat(file).then(
      () => {
        res.writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'content-security-policy': CSP,
        });
        createReadStream(file).pipe(res);
      },
      () => res.writeHead(404).end(),
    );
  });
  return new Promise<{ url: string; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => server.close() });
    }),
  );
}

const line = (label: string, sorted: number[]) =>
  `${label} p50 ${ms(percentile(sorted, 50))} / p95 ${ms(percentile(sorted, 95))} / max ${ms(sorted.at(-1) ?? NaN)} ms`;

export async function benchSearchBrowser(size: number, limit = 5) {
  const out = await mkdtemp(join(tmpdir(), 'search-bench-'));
  const t0 = performance.now();
  await build({
    configFile: false,
    root: HERE,
    logLevel: 'warn',
    resolve: { alias: { '@': SRC } },
    build: { outDir: out, emptyOutDir: true, target: 'es2022', modulePreload: false },
  });
  const built = performance.now() - t0;
  const step = (what: string) => console.log(`  search bench: ${what} (load average ${load()})`);
  step(`page built in ${(built / 1000).toFixed(1)} s`);
  const server = await serve(out);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const cspErrors: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/.test(m.text())) cspErrors.push(m.text());
      else if (m.type() === 'error' || m.type() === 'warning') step(`page: ${m.text()}`);
    });
    page.on('pageerror', (e) => step(`page error: ${e.stack ?? e.message}`));
    await page.goto(server.url);
    await page.waitForFunction(() => document.title === 'ready');
    const seeded = await page.evaluate(
      (n) => (window as unknown as { searchBench: SearchBench }).searchBench.seed(n),
      size,
    );
    step(
      `${size.toLocaleString('en')} tracks written to IndexedDB in ${(seeded / 1000).toFixed(1)} s`,
    );
    const started = await page.evaluate(() =>
      (window as unknown as { searchBench: SearchBench }).searchBench.start(),
    );
    step(
      `the worker read the mirror and indexed it in ${(started.ms / 1000).toFixed(1)} s; ` +
        `it answered from part of it (the newest 5,000, then chunks most played first) after ${(started.firstChunkMs / 1000).toFixed(1)} s`,
    );
    const typed = keystrokes(SEARCH_QUERIES);
    // Warm-up: the first four keystrokes.
    await page.evaluate(
      (t) => (window as unknown as { searchBench: SearchBench }).searchBench.each(t, 5),
      typed.slice(0, 4),
    );
    const each: KeystrokeTiming[] = await page.evaluate(
      ([t, l]) => (window as unknown as { searchBench: SearchBench }).searchBench.each(t, l),
      [typed, limit] as [string[], number],
    );
    const typing = await page.evaluate(
      ([q, l]) => (window as unknown as { searchBench: SearchBench }).searchBench.typing(q, 80, l),
      [SEARCH_QUERIES, limit] as [string[], number],
    );
    const sorted = (f: (t: KeystrokeTiming) => number) => each.map(f).sort((a, b) => a - b);
    console.log(
      `\nBrowser search in a Web Worker (Chromium), ${size.toLocaleString('en')} tracks in IndexedDB, load average ${load()}`,
    );
    console.log(
      `  mirror written in ${(seeded / 1000).toFixed(1)} s; the worker read it and built ${started.documents.toLocaleString('en')} documents in ${(started.ms / 1000).toFixed(1)} s`,
    );
    console.log(
      `  ${each.length} keystrokes (${SEARCH_QUERIES.length} texts typed letter by letter, once; ${limit} results each), one at a time:`,
    );
    console.log(
      line(
        '    main thread per keystroke (post + receive):',
        sorted((t) => t.post + t.receive),
      ) + '; goal p95 ≤ 16 ms',
    );
    console.log(
      line(
        '    time to results (keystroke → answer in the page):',
        sorted((t) => t.result),
      ),
    );
    console.log(
      line(
        '    ranking inside the worker:',
        sorted((t) => t.worker),
      ),
    );
    const slow = [...each].sort((a, b) => b.result - a.result).slice(0, 5);
    console.log(`    slowest: ${slow.map((t) => `"${t.q}" ${ms(t.result)} ms`).join(', ')}`);
    const settle = typing.map((t) => t.settle).sort((a, b) => a - b);
    const ran = typing.reduce((n, t) => n + t.ran, 0);
    const keys = typing.reduce((n, t) => n + t.typed, 0);
    console.log(
      `  typing 80 ms per key (latest keystroke wins): the worker ran ${ran} of ${keys} keystrokes; ${line('last keystroke → its answer', settle)}`,
    );
    if (cspErrors.length > 0) console.log(`  CSP violations: ${cspErrors.join(' | ')}`);
  } finally {
    await browser.close();
    server.close();
    await rm(out, { recursive: true, force: true });
  }
}
