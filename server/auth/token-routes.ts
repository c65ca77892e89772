/**
 * POST /token: grant_type password (rate-limited wrong passwords), refresh_token (rotation and
 * reuse detection) and pkce.
 */
import type { Context, Hono } from 'hono';
import { clientIp, readJson, str, type AuthDeps } from './context';
import { OAuthError, badRequest, validationFailed } from './errors';
import { limitGuesses } from './rate-limit';
import { checkPassword } from './passwords';
import { pkceGrant } from './pkce';
import { issueSession, refreshGrant } from './sessions';
import { findUserByEmail, isBanned, normalizeEmail } from './users';

async function passwordGrant(c: Context, deps: AuthDeps, body: Record<string, unknown>) {
  const emailInput = str(body.email);
  const password = str(body.password);
  if (emailInput && str(body.phone))
    throw validationFailed('Only an email address or phone number should be provided on login.');
  if (!emailInput) {
    if (str(body.phone)) throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
    throw validationFailed('missing email or phone');
  }
  const email = normalizeEmail(emailInput);
  const ip = clientIp(c, deps.config.trustProxy);
  // Wrong passwords count against the address and the client IP (rate-limit.ts).
  const user = await limitGuesses(
    deps.limiters.guesses,
    { email: `password:email:${email}`, ip: `password:ip:${ip}` },
    deps.config.rateLimit,
    async () => {
      const found = await findUserByEmail(deps.db, email);
      const ok = await checkPassword(password, found?.encrypted_password ?? null);
      if (!found || !ok || isBanned(found))
        throw badRequest('invalid_credentials', 'Invalid login credentials');
      return found;
    },
  );
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
  const session = await deps.db.transaction((tx) =>
    issueSession(tx, deps, user.id, 'password', {
      userAgent: c.req.header('user-agent'),
      ip,
    }),
  );
  return c.json(session);
}

export function registerTokenRoutes(app: Hono, deps: AuthDeps): void {
  app.post('/token', async (c) => {
    const grantType = c.req.query('grant_type') ?? '';
    const body = await readJson(c);
    const client = {
      userAgent: c.req.header('user-agent'),
      ip: clientIp(c, deps.config.trustProxy),
    };
    switch (grantType) {
      case 'password':
        return passwordGrant(c, deps, body);
      case 'refresh_token': {
        const token = str(body.refresh_token);
        if (!token) throw new OAuthError('invalid_request', 'refresh_token required');
        return c.json(await refreshGrant(deps, token, client));
      }
      case 'pkce':
        return c.json(await pkceGrant(deps, str(body.auth_code), str(body.code_verifier), client));
      case 'id_token':
        throw badRequest(
          'provider_disabled',
          'Sign in with an ID token is not enabled on this server',
        );
      default:
        throw new OAuthError('unsupported_grant_type', '');
    }
  });
}
