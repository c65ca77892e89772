import { Hono } from 'hono';
import { readInlineScriptHashes } from '../build/inline-scripts';
import { prerenderFileFor } from '../build/prerender-paths';
import { pageSecurityHeaders } from './security-headers';
import { loadStaticFiles, negotiateEncoding, type StaticFile } from './static-files';

/**
 * Paths of the Supabase-compatible HTTP surface. Each backend module (auth, rest, storage,
 * functions, dev tools) mounts under its prefix; the app shell never answers them.
 */
export const API_PREFIXES = [
  '/auth/v1',
  '/rest/v1',
  '/storage/v1',
  '/functions/v1',
  '/realtime/v1',
  '/_dev',
  // The app's configuration (`/_app/config`), in every mode.
  '/_app',
  // The local payment sandbox (docs/payments.md): Stripe's API paths and the hosted checkout.
  '/v1',
  '/_stripe',
] as const;

export function isApiPath(path: string): boolean {
  return API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

function fileResponse(
  file: StaticFile,
  request: Request,
  securityHeaders: Record<string, string>,
  status = 200,
): Response {
  const headers = new Headers(securityHeaders);
  headers.set('Content-Type', file.contentType);
  headers.set('Cache-Control', file.cacheControl);
  headers.set('ETag', file.etag);
  headers.set('Vary', 'Accept-Encoding');
  if (request.headers.get('if-none-match') === file.etag) {
    return new Response(null, { status: 304, headers });
  }
  const { body, encoding } = negotiateEncoding(
    file,
    request.headers.get('accept-encoding') ?? undefined,
  );
  if (encoding) headers.set('Content-Encoding', encoding);
  headers.set('Content-Length', String(body.length));
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status, headers });
}

export interface AppOptions {
  distDir: string;
  /** Backend modules, each mounted at its Supabase path (e.g. '/rest/v1'). */
  mounts?: { path: string; app: Hono }[];
  /** Served at `GET /_dev/config` in development: where the app finds its backend. */
  devConfig?: { url: string; anonKey: string } | null;
  /**
   * Served at `GET /_app/config` in every mode: what the app served here needs (AppConfig).
   * Default: the development config when there is one (harnesses that pass only `devConfig`).
   */
  appConfig?: AppConfig | null;
  /** CSP, HSTS and the rest (server/http/security-headers.ts); default: from process.env. */
  securityHeaders?: Record<string, string>;
}

/**
 * The app's configuration as this server serves it, in every mode (production included): the
 * anon key, public by design (every Supabase app ships it), and the backend URL: PUBLIC_URL in
 * development (as `/_dev/config`), null in production, meaning the page's own origin: this
 * server serves both the app and its backend, so the origin the browser reached it at is the
 * backend (and the only one the production CSP's `connect-src 'self'` allows).
 */
export interface AppConfig {
  url: string | null;
  anonKey: string;
}

/** The one HTTP app: Supabase-compatible API prefixes first, then the built PWA with SPA fallback. */
export function createApp({
  distDir,
  mounts = [],
  devConfig = null,
  appConfig = devConfig,
  securityHeaders: SECURITY_HEADERS = pageSecurityHeaders(
    process.env,
    readInlineScriptHashes(distDir),
    devConfig?.url ?? process.env.VITE_SUPABASE_URL,
  ),
}: AppOptions) {
  const files = loadStaticFiles(distDir);
  const app = new Hono();

  app.get('/healthz', (c) => c.json({ ok: true }));

  for (const mount of mounts) app.route(mount.path, mount.app);
  if (devConfig) app.get('/_dev/config', (c) => c.json(devConfig));
  if (appConfig)
    app.get('/_app/config', (c) => c.json(appConfig, 200, { 'Cache-Control': 'no-store' }));

  // API paths no module answers get a JSON 404, never the app shell.
  app.all('*', async (c, next) => {
    if (!isApiPath(c.req.path)) return next();
    return c.json(
      {
        code: 'PGRST000',
        message: `No route for ${c.req.method} ${c.req.path}`,
        details: null,
        hint: null,
      },
      404,
    );
  });

  app.on(['GET', 'HEAD'], '*', (c) => {
    let path: string;
    try {
      path = decodeURIComponent(c.req.path);
    } catch {
      // Broken percent-encoding (`/%zz`) is the client's mistake: a 400, not a 500 (found by
      // tests/security/bad-requests.test.ts).
      return c.text('Bad request: malformed URL', 400, SECURITY_HEADERS);
    }
    // A page rendered at build time paints before any JavaScript runs. Only without a query
    // string: the page may render its search parameters, which the prerender did not know.
    const prerendered = new URL(c.req.url).search
      ? undefined
      : files.get(`/${prerenderFileFor(path)}`);
    if (prerendered) return fileResponse(prerendered, c.req.raw, SECURITY_HEADERS);
    const file = files.get(path);
    if (file) return fileResponse(file, c.req.raw, SECURITY_HEADERS);
    // A missing build file (an old chunk, a typo) is a real 404, never the app shell.
    const looksLikeFile = /\.[a-z0-9]+$/i.test(path);
    const shell = files.get('/index.html');
    if (!looksLikeFile && shell) return fileResponse(shell, c.req.raw, SECURITY_HEADERS);
    return c.text('Not found', 404, SECURITY_HEADERS);
  });

  return app;
}
