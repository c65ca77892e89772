import { JwtError, type JwtClaims } from '../keys/keys';
import { RestError } from './errors';

export interface RequestAuth {
  role: string;
  claims: JwtClaims;
  /** A JWT role other than the anonymous one (42501 then means 403, not 401). */
  authenticated: boolean;
}

export interface AuthOptions {
  verify: (token: string) => Promise<JwtClaims>;
  anonRole: string;
  /** Roles a JWT may switch to (the authenticator's memberships on hosted Supabase). */
  allowedRoles: ReadonlySet<string>;
}

function bearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m ? m[1]?.trim() : undefined;
}

/**
 * PostgREST's authentication, with Supabase's gateway in front: the JWT is the `Authorization:
 * Bearer` token, else the `apikey` header; no token at all is the anonymous role.
 */
export async function authenticate(
  authorization: string | undefined,
  apikey: string | undefined,
  opts: AuthOptions,
): Promise<RequestAuth> {
  const token = bearer(authorization) ?? (apikey?.trim() || undefined);
  if (authorization && !bearer(authorization))
    throw jwtError('invalid', 'Invalid Authorization header: expected "Bearer <token>"');
  if (!token) return { role: opts.anonRole, claims: { role: opts.anonRole }, authenticated: false };
  let claims: JwtClaims;
  try {
    claims = await opts.verify(token);
  } catch (err) {
    if (err instanceof JwtError) throw jwtError(err.reason, err.message);
    throw jwtError('invalid', 'JWT could not be decoded');
  }
  const role = typeof claims.role === 'string' && claims.role !== '' ? claims.role : opts.anonRole;
  if (!opts.allowedRoles.has(role)) {
    throw new RestError(403, '42501', `permission denied to set role "${role}"`);
  }
  return { role, claims, authenticated: role !== opts.anonRole };
}

function jwtError(reason: 'expired' | 'invalid', message: string): RestError {
  const code = reason === 'expired' ? 'PGRST303' : 'PGRST301';
  return new RestError(401, code, message, null, null, {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${message.replaceAll('"', "'")}"`,
  });
}
