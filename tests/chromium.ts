import { existsSync } from 'node:fs';

/** Debian's Chromium, as every browser tool of this repo launches it (DESIGN.md section 5). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * The browser the Playwright suite drives: Debian's `chromium-headless-shell` (the same Chromium
 * build without the desktop browser around it, what Playwright itself runs headless) when it is
 * installed, else CHROMIUM_PATH. The shell costs about a quarter less CPU per test on this
 * 2-core machine (docs/architecture.md, "Tests"), and plays audio, service workers and Cache
 * Storage the same way. Benchmarks and Lighthouse keep the full browser.
 */
export const E2E_CHROMIUM_PATH =
  process.env.E2E_CHROMIUM_PATH ||
  (!process.env.CHROMIUM_PATH && existsSync('/usr/bin/chromium-headless-shell')
    ? '/usr/bin/chromium-headless-shell'
    : CHROMIUM_PATH);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--autoplay-policy=no-user-gesture-required',
];
