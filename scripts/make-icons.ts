/**
 * Renders the app icons (public/icons/*.png) from the logo drawn below, with Debian's Chromium.
 * Run once when the logo changes: `npx tsx scripts/make-icons.ts`. The PNGs are committed.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/chromium';

function logoSvg(size: number, maskable: boolean): string {
  // Maskable icons keep the mark inside the 80% safe zone on a full-bleed background.
  const inset = maskable ? size * 0.2 : 0;
  const s = size - inset * 2;
  const r = maskable ? 0 : size * 0.22;
  const bar = (x: number, y: number, h: number) =>
    `<rect x="${inset + (x / 32) * s}" y="${inset + (y / 32) * s}" width="${(4 / 32) * s}" height="${(h / 32) * s}" rx="${(2 / 32) * s}" fill="#0d0d12"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
    <rect width="${size}" height="${size}" rx="${r}" fill="#ff642b"/>
    ${bar(7, 15, 10)}${bar(14, 10, 15)}${bar(21, 6, 19)}
  </svg>`;
}

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const page = await browser.newPage();
mkdirSync('public/icons', { recursive: true });
for (const [name, size, maskable] of [
  ['icon-192', 192, false],
  ['icon-512', 512, false],
  ['icon-maskable-512', 512, true],
] as const) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<body style="margin:0;background:transparent">${logoSvg(size, maskable)}</body>`,
  );
  await page.locator('svg').screenshot({ path: `public/icons/${name}.png`, omitBackground: true });
  console.log(`public/icons/${name}.png`);
}
await browser.close();
