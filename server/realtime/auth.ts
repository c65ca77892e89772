/**
 * Realtime's JWT rules (`RealtimeWeb.ChannelsAuthorization`): a valid HS256 signature, the claims
 * `role` and `exp` present, not expired (no clock tolerance), a role the database knows. The
 * error texts are Realtime's.
 */
import { decodeJwt } from 'jose';
import { API_ROLES } from '../db/as-role';
import { JwtError, verifyJwt, type JwtClaims, type JwtSecrets } from '../keys/keys';

export type TokenCheck =
  | { ok: true; claims: JwtClaims; expiresAt: number }
  | { ok: false; kind: 'expired' | 'missing_claims' | 'malformed' | 'signature'; message: string };

function expiredBy(token: string): number | null {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? Math.max(0, Math.floor(Date.now() / 1000 - exp)) : null;
  } catch {
    return null;
  }
}

export async function checkToken(token: unknown, secret: JwtSecrets): Promise<TokenCheck> {
  if (typeof token !== 'string' || token.split('.').length !== 3)
    return { ok: false, kind: 'malformed', message: 'The token provided is not a valid JWT' };
  let claims: JwtClaims;
  try {
    claims = await verifyJwt(token, secret);
  } catch (error) {
    if (error instanceof JwtError && error.reason === 'expired') {
      return {
        ok: false,
        kind: 'expired',
        message: `Token has expired ${expiredBy(token) ?? 0} seconds ago`,
      };
    }
    const decodable = expiredBy(token) !== null || error instanceof JwtError;
    return decodable && error instanceof JwtError && error.message.includes('cryptographic')
      ? { ok: false, kind: 'signature', message: 'Failed to validate JWT signature' }
      : { ok: false, kind: 'malformed', message: 'The token provided is not a valid JWT' };
  }
  if (typeof claims.role !== 'string' || typeof claims.exp !== 'number')
    return {
      ok: false,
      kind: 'missing_claims',
      message: 'Fields `role` and `exp` are required in JWT',
    };
  const left = claims.exp - Date.now() / 1000;
  if (left <= 0)
    return {
      ok: false,
      kind: 'expired',
      message: `Token has expired ${Math.floor(-left)} seconds ago`,
    };
  if (!(API_ROLES as readonly string[]).includes(claims.role))
    return { ok: false, kind: 'malformed', message: `role "${claims.role}" does not exist` };
  return { ok: true, claims, expiresAt: claims.exp * 1000 };
}

/** A join error's reason as Realtime words it: `<Code>: <message>`. */
export function tokenErrorReason(check: Extract<TokenCheck, { ok: false }>): string {
  switch (check.kind) {
    case 'expired':
    case 'missing_claims':
      return `InvalidJWTToken: ${check.message}`;
    case 'signature':
      return `JwtSignatureError: ${check.message}`;
    default:
      return `MalformedJWT: ${check.message}`;
  }
}
