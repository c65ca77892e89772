import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.webmanifest',
  '.txt',
]);

export function gzipSize(bytes: Buffer): number {
  return gzipSync(bytes, { level: 9 }).length;
}

/**
 * Writes `.gz` and `.br` next to every compressible file of a build, so the server sends
 * compressed bytes without compressing on each request.
 */
export function precompress(dir: string): { files: number } {
  let files = 0;
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) {
      files += precompress(full).files;
      continue;
    }
    if (!COMPRESSIBLE.has(extname(entry))) continue;
    const raw = readFileSync(full);
    if (raw.length < 1024) continue;
    writeFileSync(`${full}.gz`, gzipSync(raw, { level: 9 }));
    writeFileSync(
      `${full}.br`,
      brotliCompressSync(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      }),
    );
    files += 1;
  }
  return { files };
}
