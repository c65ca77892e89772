import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'vite';
import { escapeHtml } from '../lib/escape-html.ts';
import { INLINE_SCRIPTS_FILE, inlineScriptHashes } from './inline-scripts.ts';
import { prerenderFileFor } from './prerender-paths.ts';

interface PrerenderModule {
  PRERENDERED_PATHS: readonly string[];
  prerender(path: string): Promise<{ html: string; title: string }>;
}

/** Puts a prerendered page into the built shell: its markup in #root, its title in the head. */
export function injectPage(template: string, html: string, title: string): string {
  if (!template.includes('<div id="root"></div>')) throw new Error('index.html has no empty #root');
  return template
    .replace('<div id="root"></div>', () => `<div id="root">${html}</div>`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
}

/**
 * After the client bundle is generated, builds `entry` for Node (a nested SSR build of the same
 * config), renders every path it lists into the final index.html, and emits the pages as build
 * assets, so the service worker's precache manifest includes them.
 */
export function prerenderPlugin({ entry }: { entry: string }): Plugin {
  let root = '';
  let configFile: string | false = false;
  return {
    name: 'soundloft-prerender',
    enforce: 'post',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      root = config.root;
      configFile = config.configFile ?? false;
    },
    async generateBundle(_options, bundle) {
      const shell = bundle['index.html'];
      if (!shell || shell.type !== 'asset') return;
      const outDir = join(root, 'node_modules', '.cache', 'soundloft-prerender');
      await build({
        root,
        configFile,
        logLevel: 'warn',
        build: { ssr: entry, outDir, emptyOutDir: true, sourcemap: false, copyPublicDir: false },
      });
      const moduleUrl = `${pathToFileURL(join(outDir, 'prerender.js')).href}?build=${Date.now()}`;
      const mod = (await import(moduleUrl)) as PrerenderModule;
      const template = String(shell.source);
      const pages = [template];
      for (const path of mod.PRERENDERED_PATHS) {
        const { html, title } = await mod.prerender(path);
        const page = injectPage(template, html, title);
        pages.push(page);
        this.emitFile({ type: 'asset', fileName: prerenderFileFor(path), source: page });
      }
      // The CSP hashes of the pages' inline scripts (server/http/security-headers.ts).
      this.emitFile({
        type: 'asset',
        fileName: INLINE_SCRIPTS_FILE,
        source: `${JSON.stringify({ scriptSrc: inlineScriptHashes(pages) }, null, 2)}\n`,
      });
    },
  };
}
