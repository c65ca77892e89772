import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFingerprint } from './fingerprint';
import { precompress } from './precompress';

const STAMP = '.build-fingerprint';

export interface EnsureBuildResult {
  built: boolean;
  fingerprint: string;
  ms: number;
}

/** Builds the front end into `distDir` unless the last build was made from the same inputs. */
export function ensureBuild(
  rootDir: string,
  distDir: string,
  log: (message: string) => void = console.log,
  { force = false }: { force?: boolean } = {},
): EnsureBuildResult {
  const started = performance.now();
  const fingerprint = buildFingerprint(rootDir);
  const stampFile = join(distDir, STAMP);
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === fingerprint) {
    return { built: false, fingerprint, ms: performance.now() - started };
  }
  log('Soundloft: building the app (first start or sources changed)...');
  const vite = join(rootDir, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--outDir', distDir, '--emptyOutDir'],
    {
      cwd: rootDir,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (result.status !== 0) {
    throw new Error(`vite build failed with exit code ${result.status ?? 'unknown'}`);
  }
  precompress(distDir);
  writeFileSync(stampFile, `${fingerprint}\n`);
  return { built: true, fingerprint, ms: performance.now() - started };
}
