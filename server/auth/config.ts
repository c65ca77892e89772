/** The auth server's settings, from the environment (docs/auth.md lists them). */

export interface AuthConfig {
  /** The public origin of the server, e.g. `http://localhost:8787` (no trailing slash). */
  publicUrl: string;
  /** `${publicUrl}/auth/v1`: the JWT `iss` and the base of every link. */
  issuer: string;
  /** Access-token lifetime in seconds (`JWT_EXPIRY`, default 3600). */
  jwtExpiry: number;
  /**
   * GoTrue's SITE_URL (`SITE_URL`, default `publicUrl`): redirects on it are always allowed, and
   * it is where a flow lands when its `redirect_to` is not allowed.
   */
  siteUrl: string;
  /**
   * GoTrue's URI_ALLOW_LIST (`ADDITIONAL_REDIRECT_URLS`, comma list): further allowed
   * `redirect_to` targets, each an exact URL or a glob (server/auth/redirects.ts).
   */
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
  /**
   * GoTrue's MAILER_SECURE_EMAIL_CHANGE_ENABLED (`MAILER_SECURE_EMAIL_CHANGE_ENABLED`, default
   * true): an e-mail change needs a link from the current address and one from the new address.
   */
  secureEmailChange: boolean;
  /**
   * A password change needs the current password or a reauthentication code
   * (`SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION`, default true; docs/account.md).
   */
  passwordChangeRequiresReauthentication: boolean;
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

function falsy(value: string | undefined): boolean {
  return value !== undefined && /^(0|false|no|off)$/i.test(value.trim());
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
    siteUrl: env.SITE_URL?.trim() || base,
    jwtExpiry: positiveInt(env.JWT_EXPIRY, 'JWT_EXPIRY', 3600),
    additionalRedirectUrls: (env.ADDITIONAL_REDIRECT_URLS ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    trustProxy: truthy(env.TRUST_PROXY),
    google: clientId && clientSecret ? { clientId, clientSecret } : null,
    devIdp: !(clientId && clientSecret) && (env.NODE_ENV !== 'production' || truthy(env.DEV_IDP)),
    secureEmailChange: !falsy(env.MAILER_SECURE_EMAIL_CHANGE_ENABLED),
    passwordChangeRequiresReauthentication: !falsy(
      env.SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION,
    ),
    passwordMinLength: 6,
    bcryptCost: 10,
    otpExpiry: 3600,
    mailMinInterval: 60,
    refreshTokenReuseInterval: 10,
    rateLimit: { perEmail: 10, perIp: 30, windowMs: 5 * 60_000 },
    ...overrides,
  };
}
