/**
 * Starts a TypeScript worker thread: tsx's loader is registered inside the worker itself (a worker
 * does not inherit the parent's `--import tsx` hooks on Node 20, and vitest has no loader at all).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export function startTsWorker(entry: URL, options: { execArgv?: string[] } = {}): Worker {
  const tsxDir = createRequire(import.meta.url)
    .resolve('tsx/package.json')
    .replace(/package\.json$/, '');
  const api = pathToFileURL(`${tsxDir}dist/esm/api/index.mjs`).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { eval: true, execArgv: options.execArgv ?? [] });
}
