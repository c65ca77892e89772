/**
 * Inline scripts of the built pages and their CSP hashes. The prerendered public pages carry
 * one inline script, TanStack Router's scroll restoration (it runs before the app's JavaScript
 * and removes itself); the build writes the `'sha256-…'` source of every inline script to
 * `dist/csp-inline-scripts.json`, which the server adds to `script-src` (and a CDN serving
 * `dist/` can too). Anything else inline is refused by the policy.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const INLINE_SCRIPTS_FILE = 'csp-inline-scripts.json';

/** The bodies of the `<script>` elements without `src` (executable ones: no JSON types). */
export function inlineScripts(html: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? '';
    if (/\bsrc\s*=/i.test(attrs)) continue;
    found.push(m[2] ?? '');
  }
  return found;
}

/** A CSP hash source for a script's exact text. */
export function cspHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/** The sorted, unique hash sources of every inline script in `pages`. */
export function inlineScriptHashes(pages: Iterable<string>): string[] {
  const hashes = new Set<string>();
  for (const page of pages) for (const script of inlineScripts(page)) hashes.add(cspHash(script));
  return [...hashes].sort();
}

/** What the build recorded in `distDir` (empty without a build). */
export function readInlineScriptHashes(distDir: string): string[] {
  const file = join(distDir, INLINE_SCRIPTS_FILE);
  if (!existsSync(file)) return [];
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { scriptSrc?: unknown };
  return Array.isArray(parsed.scriptSrc)
    ? parsed.scriptSrc.filter(
        (h): h is string => typeof h === 'string' && /^'sha256-[A-Za-z0-9+/=]+'$/.test(h),
      )
    : [];
}
