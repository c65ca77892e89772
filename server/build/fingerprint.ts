import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What the front-end build reads: when any of it changes, dist/ is stale. */
export const BUILD_INPUTS = [
  'src',
  'sw',
  'public',
  'index.html',
  'manifest.webmanifest',
  'vite.config.ts',
  'server/build/vite-plugin-prerender.ts',
  'server/build/prerender-paths.ts',
  'server/build/inline-scripts.ts',
  'server/lib/escape-html.ts',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.app.json',
  'tsconfig.sw.json',
  'package-lock.json',
];

function* walk(path: string): Generator<string> {
  const stat = statSync(path);
  if (stat.isFile()) {
    yield path;
    return;
  }
  for (const entry of readdirSync(path).sort()) {
    if (entry === 'node_modules' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx'))
      continue;
    yield* walk(join(path, entry));
  }
}

/** A content hash of every build input (paths and bytes), stable across clones and mtimes. */
export function buildFingerprint(rootDir: string, inputs: string[] = BUILD_INPUTS): string {
  const hash = createHash('sha256');
  for (const input of inputs) {
    const full = join(rootDir, input);
    if (!existsSync(full)) continue;
    for (const file of walk(full)) {
      hash.update(relative(rootDir, file));
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}
