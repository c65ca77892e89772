/**
 * `createAuthApp`: the GoTrue-compatible auth server, a Hono sub-app mounted at /auth/v1.
 * See docs/auth.md for the endpoints, claims, flows and settings.
 */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { Database } from '../db/database';
import type { Keys } from '../keys';
import type { Mailer } from '../mail';
import { registerAdminRoutes } from './admin-routes';
import { loadAuthConfig, type AuthConfigOverrides } from './config';
import type { AuthDeps } from './context';
import { createDevIdp } from './dev-idp';
import { registerEmailRoutes } from './email-routes';
import { API_VERSION_2024_01_01, API_VERSION_HEADER, handleAuthError, notFound } from './errors';
import { registerMfaRoutes } from './mfa-routes';
import { registerOAuthRoutes } from './oauth-routes';
import { createProvider } from './providers';
import { RateLimiter } from './rate-limit';
import { registerTokenRoutes } from './token-routes';
import { registerUserRoutes } from './user-routes';
import { registerVerifyRoutes } from './verify';

export interface AuthAppOptions {
  db: Database;
  keys: Pick<Keys, 'jwtSecret'>;
  mailer: Mailer;
  /** The environment (JWT_EXPIRY, ADDITIONAL_REDIRECT_URLS, TRUST_PROXY, GOOGLE_CLIENT_ID, …). */
  env?: Record<string, string | undefined>;
  /** The server's public origin, e.g. `http://localhost:8787`. */
  publicUrl: string;
  /** Tests only: lower bcrypt cost, shorter limits, … (production uses the defaults). */
  overrides?: AuthConfigOverrides;
}

export const GOTRUE_VERSION = 'v2.170.0-soundloft';

export function createAuthApp(options: AuthAppOptions): Hono {
  const config = loadAuthConfig(options.env ?? process.env, options.publicUrl, options.overrides);
  const deps: AuthDeps = {
    db: options.db,
    keys: options.keys,
    mailer: options.mailer,
    config,
    limiters: {
      guesses: new RateLimiter(options.db, config.rateLimit.windowMs),
      mail: new RateLimiter(options.db, config.mailMinInterval * 1000),
    },
  };
  const devIdp = createDevIdp({ issuer: `${config.issuer}/dev-idp`, db: options.db });
  const provider = createProvider(config, devIdp);

  const app = new Hono();
  app.onError(handleAuthError);
  app.use(
    '*',
    cors({
      origin: (origin) => origin,
      allowHeaders: [
        'Authorization',
        'apikey',
        'Content-Type',
        'X-Client-Info',
        API_VERSION_HEADER,
        'X-Supabase-Client-Platform',
      ],
      allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      exposeHeaders: ['X-Total-Count', 'Link', API_VERSION_HEADER],
      maxAge: 86400,
    }),
  );
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
    // GoTrue echoes the API version a request asked for; supabase-js reads error codes by it.
    if (c.req.header(API_VERSION_HEADER)) c.header(API_VERSION_HEADER, API_VERSION_2024_01_01);
  });

  app.get('/health', (c) =>
    c.json({
      version: GOTRUE_VERSION,
      name: 'GoTrue',
      description: 'GoTrue is a user registration and authentication API',
    }),
  );
  app.get('/settings', (c) =>
    c.json({
      external: {
        anonymous_users: false,
        apple: false,
        azure: false,
        bitbucket: false,
        discord: false,
        facebook: false,
        figma: false,
        github: false,
        gitlab: false,
        google: provider !== null,
        keycloak: false,
        linkedin_oidc: false,
        notion: false,
        slack_oidc: false,
        spotify: false,
        twitch: false,
        twitter: false,
        workos: false,
        zoom: false,
        email: true,
        phone: false,
      },
      disable_signup: false,
      mailer_autoconfirm: false,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );
  // Only symmetric HS256 keys sign access tokens, and GoTrue publishes none of those.
  app.get('/.well-known/jwks.json', (c) => c.json({ keys: [] }));

  registerEmailRoutes(app, deps);
  registerVerifyRoutes(app, deps);
  registerTokenRoutes(app, deps);
  registerUserRoutes(app, deps);
  registerOAuthRoutes(app, deps, provider);
  registerMfaRoutes(app, deps);
  registerAdminRoutes(app, deps);
  if (provider?.kind === 'development') app.route('/dev-idp', devIdp.app);

  // A catch-all route (a mounted sub-app's notFound is not used by the parent app).
  app.all('*', (c) => handleAuthError(notFound('not_found', 'Not Found'), c));
  return app;
}
