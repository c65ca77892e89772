import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, E2E_CHROMIUM_PATH } from './tests/chromium';

/** The suite runs against `npm start`'s server on its own port, with an in-memory database. */
const PORT = Number(process.env.E2E_PORT ?? 8797);
const baseURL = `http://127.0.0.1:${PORT}`;

const DESKTOP = { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } };
const MOBILE = {
  ...devices['Pixel 7'],
  browserName: 'chromium' as const,
  viewport: { width: 375, height: 812 },
};
/** Specs run after every other one (the 'late' projects below). */
const LATE = /(copyright-notice|account-data)(\.mobile)?\.spec\.ts/;

export default defineConfig({
  testDir: './tests/e2e',
  // Runs on their own port (E2E_PORT) also get their own artifacts folder: Playwright empties
  // its output folder at start, which would break a parallel run's traces.
  outputDir: process.env.E2E_PORT ? `test-results/port-${PORT}` : 'test-results',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    // Playwright's trace records a screencast and DOM snapshots of every test, kept only when it
    // fails: on two cores that was a third of the suite's time (docs/architecture.md, "Tests").
    // CI keeps no artifacts we can read, so it runs without; a failure still leaves its screenshot
    // and page snapshot (error-context.md). E2E_TRACE=retain-on-failure turns it back on.
    trace:
      (process.env.E2E_TRACE as 'retain-on-failure' | 'on' | 'off' | undefined) ??
      (process.env.CI ? 'off' : 'retain-on-failure'),
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: E2E_CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    {
      name: 'desktop',
      use: DESKTOP,
      testIgnore: [/mobile\.spec\.ts/, LATE],
    },
    {
      name: 'mobile',
      use: MOBILE,
      testMatch: /mobile\.spec\.ts/,
      testIgnore: LATE,
    },
    // Specs that publish or delete tracks other specs would meet run once the others are done
    // (the copyright flow; the account export and deletion, which upload and delete): the
    // copyright flow's verified 3-s track became the newest and the shortest of the catalogue,
    // which the read-only demo specs (home's Recently Added, the downloads' shortest tracks)
    // picked, and its removal mid-run stalled their downloads (CI, once).
    {
      name: 'desktop-late',
      use: DESKTOP,
      testMatch: LATE,
      testIgnore: /mobile\.spec\.ts/,
      dependencies: ['desktop', 'mobile'],
    },
    {
      name: 'mobile-late',
      use: MOBILE,
      testMatch: /(copyright-notice|account-data)\.mobile\.spec\.ts/,
      dependencies: ['desktop', 'mobile'],
    },
  ],
  webServer: {
    command: 'npm start',
    url: `${baseURL}/healthz`,
    // TRUST_PROXY: a test names a public client address with X-Forwarded-For (a device's place,
    // tests/e2e/support/settings-flows.ts); requests without the header are loopback as before.
    env: { PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: 'memory', TRUST_PROXY: 'true' },
    reuseExistingServer: !process.env.CI,
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
