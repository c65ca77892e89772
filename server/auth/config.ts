/** The auth server's settings, from the environment (docs/auth.md lists them). */

export interface AuthConfig {
  /** The public origin of the server, e.g. `http://localhost:8787` (no trailing slash). */
  publicUrl: string;
  /** `${publicUrl}/auth/v1`: the JWT `iss` and the base of every link. */
  issuer: string;
  /** Access-token lifetime in seconds (`JWT_EXPIRY`, default 3600). */
  jwtExpiry: number;
  /** Extra allowed `redirect_to` targets (`ADDITIONAL_REDIRECT_URLS`, comma list, `*` globs). */
  additionalRedirectUrls: string[];
  /** Use the first `X-Forwarded-For` address as the client IP (`TRUST_PROXY`). */
  trustProxy: boolean;
  google: { clientId: string; clientSecret: string } | null;
  /**
   * The local development identity provider stands in for Google when Google is not configured:
   * always outside production, in production only with DEV_IDP=true (anyone can sign in as
   * anyone through it).
   */
  devIdp: boolean;
  passwordMinLength: number;
  /** bcrypt cost; 10 in production (tests may lower it through `createAuthApp`'s options). */
  bcryptCost: number;
  /** Lifetime of e-mailed links and codes in seconds (GoTrue's MAILER_OTP_EXP, 3600). */
  otpExpiry: number;
  /** Minimum seconds between two mails of one kind to one address (GoTrue's 60 s). */
  mailMinInterval: number;
  /** A revoked refresh token may be reused this many seconds after rotation (GoTrue: 10). */
  refreshTokenReuseInterval: number;
  /** Wrong-password limits, per e-mail address and per client IP, in a sliding window. */
  rateLimit: { perEmail: number; perIp: number; windowMs: number };
}

export type AuthConfigOverrides = Partial<Omit<AuthConfig, 'publicUrl' | 'issuer'>>;

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`);
  return n;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

export function loadAuthConfig(
  env: Record<string, string | undefined>,
  publicUrl: string,
  overrides: AuthConfigOverrides = {},
): AuthConfig {
  const base = publicUrl.replace(/\/+$/, '');
  const clientId = env.GOOGLE_CLIENT_ID?.trim();
  const clientSecret = env.GOOGLE_CLIENT_SECRET?.trim();
  return {
    publicUrl: base,
    issuer: `${base}/auth/v1`,
    jwtExpiry: positiveInt(env.JWT_EXPIRY, 'JWT_EXPIRY', 3600),
    additionalRedirectUrls: (env.ADDITIONAL_REDIRECT_URLS ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    trustProxy: truthy(env.TRUST_PROXY),
    google: clientId && clientSecret ? { clientId, clientSecret } : null,
    devIdp: !(clientId && clientSecret) && (env.NODE_ENV !== 'production' || truthy(env.DEV_IDP)),
    passwordMinLength: 6,
    bcryptCost: 10,
    otpExpiry: 3600,
    mailMinInterval: 60,
    refreshTokenReuseInterval: 10,
    rateLimit: { perEmail: 10, perIp: 30, windowMs: 5 * 60_000 },
    ...overrides,
  };
}

function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '*') {
      if (pattern[i + 1] === '*') {
        re += '.*';
        i++;
      } else re += '[^/.]*';
    } else re += ch.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * GoTrue's redirect check: a `redirect_to` on the site's origin, or matching one of the
 * additional URLs (exact, a prefix path, or a `*`/`**` glob), is kept; anything else falls back
 * to `fallback` (GoTrue silently uses the site URL).
 */
export function safeRedirect(
  config: AuthConfig,
  redirectTo: string | undefined | null,
  fallback: string,
): string {
  if (!redirectTo) return fallback;
  let url: URL;
  try {
    url = new URL(redirectTo);
  } catch {
    return fallback;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // Custom app schemes only when listed explicitly.
    return config.additionalRedirectUrls.some((p) => globToRegExp(p).test(redirectTo))
      ? redirectTo
      : fallback;
  }
  if (url.origin === new URL(config.publicUrl).origin) return url.toString();
  for (const pattern of config.additionalRedirectUrls) {
    if (pattern.includes('*')) {
      if (globToRegExp(pattern).test(redirectTo)) return url.toString();
      continue;
    }
    try {
      const allowed = new URL(pattern);
      const path = allowed.pathname.replace(/\/+$/, '');
      if (
        allowed.origin === url.origin &&
        (url.pathname === allowed.pathname || url.pathname.startsWith(`${path}/`) || path === '')
      )
        return url.toString();
    } catch {
      // not a URL: ignored
    }
  }
  return fallback;
}
