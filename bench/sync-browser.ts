/**
 * The sync bench in Chromium (real IndexedDB): src/data and bench/sync-client.ts bundled by
 * esbuild (tsx's own dependency) into one script, run in a page whose origin is the bench
 * server's control port; the page talks to the REST server cross-origin (CORS is open).
 */
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/chromium';
import type { BenchServer, SyncFigures } from './sync-client';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const ENTRY = `
import { createDb } from './src/data/db/index.ts';
import { createTokenClient } from './src/data/remote/create-client.ts';
import { createSyncRemote } from './src/data/remote/sync-remote.ts';
import { createSyncEngine } from './src/data/sync/engine.ts';
import { createRepositories } from './src/data/repositories/index.ts';
import { measureSync } from './bench/sync-client.ts';
const api = {
  createDb, createTokenClient, createSyncRemote, createSyncEngine, createRepositories,
  count: (db, table) => db[table].count(),
};
globalThis.syncBench = (server, n, loads) => measureSync(api, server, n, loads);
`;

async function bundle(): Promise<string> {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts', sourcefile: 'sync-bench-entry.ts' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'error',
    define: { 'import.meta.env': '{}' },
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced nothing');
  return file.text;
}

export async function measureSyncInChromium(
  server: BenchServer,
  n: number,
  loads: number,
): Promise<SyncFigures> {
  const script = await bundle();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.control}/`);
    await page.addScriptTag({ content: script });
    return await page.evaluate(
      ([s, count, l]) =>
        (
          globalThis as unknown as {
            syncBench(s: BenchServer, n: number, l: number): Promise<SyncFigures>;
          }
        ).syncBench(s, count, l),
      [server, n, loads] as const,
    );
  } finally {
    await browser.close();
  }
}
