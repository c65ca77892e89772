/**
 * What every route of the auth server shares (database, keys, mailer, settings, limiters), and
 * the request helpers: JSON bodies, the client IP, and GoTrue's bearer-token authentication.
 */
import type { Context } from 'hono';
import type { Database } from '../db/database';
import { JwtError, verifyJwt, type JwtClaims, type Keys } from '../keys';
import type { Mailer } from '../mail';
import type { AuthConfig } from './config';
import { badRequest, forbidden, unauthorized } from './errors';
import type { RateLimiter } from './rate-limit';
import { findUserById, type UserRow } from './users';

export interface AuthDeps {
  db: Database;
  keys: Pick<Keys, 'jwtSecret'>;
  mailer: Mailer;
  config: AuthConfig;
  /** guesses: wrong passwords and codes (config.rateLimit); mail: one mail per kind and address. */
  limiters: { guesses: RateLimiter; mail: RateLimiter };
}

/** The request body as JSON (GoTrue: 400 bad_json for anything unparsable). */
export async function readJson(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch (err) {
    throw badRequest('bad_json', `Could not parse request body as JSON: ${(err as Error).message}`);
  }
  throw badRequest('bad_json', 'Could not parse request body as JSON: expected an object');
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/** The client's IP: the socket's, or the first X-Forwarded-For hop when TRUST_PROXY is set. */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const env = c.env as NodeBindings | undefined;
  return env?.incoming?.socket?.remoteAddress?.replace(/^::ffff:/, '') ?? 'unknown';
}

export function bearerToken(c: Context): string | null {
  const header = c.req.header('authorization');
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

/** A verified JWT, as GoTrue's requireAuthentication: 401 without one, 403 bad_jwt otherwise. */
export async function requireClaims(c: Context, deps: AuthDeps): Promise<JwtClaims> {
  const token = bearerToken(c);
  if (!token) throw unauthorized('no_authorization', 'This endpoint requires a valid Bearer token');
  try {
    return await verifyJwt(token, deps.keys.jwtSecret);
  } catch (err) {
    const detail =
      err instanceof JwtError && err.reason === 'expired'
        ? 'token has invalid claims: token is expired'
        : 'unable to parse or verify signature';
    throw forbidden('bad_jwt', `invalid JWT: ${detail}`);
  }
}

export interface Authenticated {
  claims: JwtClaims;
  user: UserRow;
  sessionId: string;
  aal: string;
}

/** A signed-in user's request: the JWT's user and session must still exist. */
export async function requireUser(c: Context, deps: AuthDeps): Promise<Authenticated> {
  const claims = await requireClaims(c, deps);
  const sub = typeof claims.sub === 'string' ? claims.sub : '';
  if (!sub) throw badRequest('bad_jwt', 'invalid claim: missing sub claim');
  const user = await findUserById(deps.db, sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : '';
  const { rows } = await deps.db.query<{ aal: string | null }>(
    `select aal::text as aal from auth.sessions
     where id = $1 and user_id = $2 and (not_after is null or not_after > now())`,
    [/^[0-9a-f-]{36}$/i.test(sessionId) ? sessionId : null, user.id],
  );
  if (!rows[0])
    throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
  return { claims, user, sessionId, aal: rows[0].aal ?? 'aal1' };
}

const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);

/** The admin API: a JWT whose role is service_role (the service key). */
export async function requireAdmin(c: Context, deps: AuthDeps): Promise<JwtClaims> {
  const claims = await requireClaims(c, deps);
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role))
    throw forbidden('not_admin', 'User not allowed');
  return claims;
}

const EMAIL_RE =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** GoTrue's address check (400 validation_failed). */
export function validateEmail(email: string): string {
  const trimmed = email.trim();
  if (!trimmed) throw badRequest('validation_failed', 'An email address is required');
  if (trimmed.length > 255 || !EMAIL_RE.test(trimmed))
    throw badRequest('email_address_invalid', 'Unable to validate email address: invalid format');
  return trimmed.toLowerCase();
}
