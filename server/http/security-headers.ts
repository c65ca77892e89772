/**
 * The headers of the app's pages and files (docs/production.md, "Headers"): a strict
 * Content-Security-Policy, always on (development too, so the e2e suite runs under the policy
 * production uses), and HSTS when the server's public URL is https.
 */

type Env = Record<string, string | undefined>;

/** What every static response carries, in every mode. */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};

/** Stripe's origins, from Stripe's CSP guide: Stripe.js, its frames, its API. */
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
};

export interface PolicyOptions {
  /** Real Stripe is configured (Stripe.js may load): its origins are allowed. */
  stripe: boolean;
  /** VITE_AD_NETWORK_SCRIPT_URL (https): that script's origin may load. */
  adScriptUrl?: string;
  /** `'sha256-…'` of the built pages' inline scripts (server/build/inline-scripts.ts). */
  inlineScripts?: readonly string[];
  /**
   * Where the app finds its backend when that is not the page's own origin: `/_dev/config`'s
   * URL (PUBLIC_URL, default `http://localhost:PORT`, while the page may be on 127.0.0.1) or
   * VITE_SUPABASE_URL. Its origin (and ws:/wss: to it) joins 'self'.
   */
  backendUrl?: string;
}

function parse(url: string | undefined): URL | null {
  if (!url) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** An https script origin (an http one is never allowed to run code). */
function httpsOrigin(url: string | undefined): string | null {
  const parsed = parse(url);
  return parsed?.protocol === 'https:' ? parsed.origin : null;
}

/** The backend's origin and its websocket origin, for connect-src (none when unparsable). */
function backendOrigins(url: string | undefined): { http: string[]; ws: string[] } {
  const parsed = parse(url);
  if (!parsed || !/^https?:$/.test(parsed.protocol)) return { http: [], ws: [] };
  const ws = `${parsed.protocol === 'https:' ? 'wss' : 'ws'}://${parsed.host}`;
  return { http: [parsed.origin], ws: [ws] };
}

/**
 * The app's policy. No inline script but the build's own, by hash (the prerendered pages' scroll
 * restoration); `connect-src` is this origin (CSP 3's 'self' covers ws:/wss: to it: realtime)
 * and Stripe when configured. `style-src` keeps 'unsafe-inline': Mantine sets its CSS variables
 * in a <style> element and React writes style attributes (styles cannot run code).
 */
export function contentSecurityPolicy({
  stripe,
  adScriptUrl,
  inlineScripts = [],
  backendUrl,
}: PolicyOptions): string {
  const ad = httpsOrigin(adScriptUrl);
  const backend = backendOrigins(backendUrl);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': [
      "'self'",
      ...inlineScripts,
      ...(stripe ? STRIPE.script : []),
      ...(ad ? [ad] : []),
    ],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", ...backend.http, 'data:', 'blob:'],
    'media-src': ["'self'", ...backend.http, 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...backend.http, ...backend.ws, ...(stripe ? STRIPE.connect : [])],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'frame-src': stripe ? STRIPE.frame : ["'none'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** HSTS: a year, subdomains included; only when the public URL is https. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers of the app's static responses for this environment. */
export function pageSecurityHeaders(
  env: Env = process.env,
  inlineScripts: readonly string[] = [],
  backendUrl: string | undefined = env.VITE_SUPABASE_URL,
): Record<string, string> {
  const stripe =
    Boolean(env.STRIPE_SECRET_KEY?.trim()) && env.PAYMENTS?.trim().toLowerCase() !== 'off';
  const headers: Record<string, string> = {
    ...BASE_SECURITY_HEADERS,
    'Content-Security-Policy': contentSecurityPolicy({
      stripe,
      adScriptUrl: env.VITE_AD_NETWORK_SCRIPT_URL,
      inlineScripts,
      backendUrl,
    }),
  };
  if (/^https:\/\//i.test(env.PUBLIC_URL?.trim() ?? ''))
    headers['Strict-Transport-Security'] = HSTS;
  return headers;
}
