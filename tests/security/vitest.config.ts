/**
 * `npm run test:security`: the attack suite (docs/security.md). Its own config so that
 * `npm run test:unit` (vite.config.ts's projects) does not run it a second time.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'security',
    environment: 'node',
    include: ['tests/security/**/*.test.ts'],
    globalSetup: ['tests/security/support/timing.ts'],
    // Each file starts the real backend and sends hundreds of requests; on a busy 2-core
    // machine a healthy file takes far longer than vitest's defaults. Timing never decides.
    testTimeout: 120_000,
    // Each file is CPU-bound in its own worker (its server and PGlite run there): one per core.
    maxWorkers: 2,
    hookTimeout: 180_000,
  },
});
