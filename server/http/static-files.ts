import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticFile {
  body: Buffer;
  gzip?: Buffer;
  brotli?: Buffer;
  contentType: string;
  etag: string;
  cacheControl: string;
}

/**
 * Cache policy: hashed build output is immutable; the shell (index.html), the service worker
 * and the manifest must be revalidated so updates reach users; the rest may be cached briefly.
 */
export function cacheControlFor(urlPath: string): string {
  if (urlPath.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  if (urlPath.endsWith('.html') || urlPath === '/sw.js' || urlPath.endsWith('.webmanifest')) {
    return 'no-cache';
  }
  if (urlPath.startsWith('/workbox-')) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

/** Loads a built app into memory (a few MB), with its precompressed variants. */
export function loadStaticFiles(distDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!existsSync(distDir)) return files;
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) {
        visit(full);
        continue;
      }
      if (entry.endsWith('.gz') || entry.endsWith('.br') || entry.startsWith('.')) continue;
      const urlPath = `/${relative(distDir, full).split(sep).join('/')}`;
      const body = readFileSync(full);
      files.set(urlPath, {
        body,
        gzip: existsSync(`${full}.gz`) ? readFileSync(`${full}.gz`) : undefined,
        brotli: existsSync(`${full}.br`) ? readFileSync(`${full}.br`) : undefined,
        contentType: MIME[extname(entry)] ?? 'application/octet-stream',
        etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
        cacheControl: cacheControlFor(urlPath),
      });
    }
  };
  visit(distDir);
  return files;
}

/** Picks the best encoding the client accepts among those available. */
export function negotiateEncoding(
  file: StaticFile,
  acceptEncoding: string | undefined,
): { body: Buffer; encoding?: 'br' | 'gzip' } {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  if (file.brotli && /\bbr\b/.test(accepted)) return { body: file.brotli, encoding: 'br' };
  if (file.gzip && /\bgzip\b/.test(accepted)) return { body: file.gzip, encoding: 'gzip' };
  return { body: file.body };
}
