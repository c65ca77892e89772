/**
 * Full-page screenshots of every public route at 1440 px and 375 px, for a human to look at:
 * `npx tsx scripts/screenshots.ts [baseUrl] [outDir]` against a running `npm start`.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { PUBLIC_ROUTES } from '../tests/public-routes';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/chromium';

const base = process.argv[2] ?? 'http://localhost:8787';
const out = process.argv[3] ?? 'test-results/screenshots';
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
for (const width of [1440, 375]) {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  for (const route of PUBLIC_ROUTES) {
    await page.goto(base + route.path);
    await page.getByRole('heading', { level: 1, name: route.heading }).waitFor();
    await page.evaluate(() => document.fonts.ready);
    const name = route.path === '/' ? 'landing' : route.path.slice(1);
    await page.screenshot({ path: `${out}/${name}-${width}.png`, fullPage: true });
    console.log(`${out}/${name}-${width}.png`);
  }
  await context.close();
}
await browser.close();
