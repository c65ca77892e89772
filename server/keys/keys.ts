/**
 * Soundloft's API keys, as Supabase local development does them: one HS256 secret
 * (`JWT_SECRET`), and two long-lived JWTs signed with it, the anon key and the service-role key.
 */
import { createHmac } from 'node:crypto';
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';

/** Used when JWT_SECRET is unset: Supabase CLI's documented local secret. Never for production. */
export const DEV_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
export const KEY_ISSUER = 'supabase-local';
/** Fixed timestamps keep the keys stable across restarts for one secret (2025-01-01 → 2100-01-01). */
const KEY_IAT = 1735689600;
const KEY_EXP = 4102444800;

export interface Keys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** true when JWT_SECRET was not set and the public development secret is in use. */
  usingDevSecret: boolean;
  /**
   * `JWT_SECRET_PREVIOUS`: the secret before a rotation, still accepted when verifying tokens
   * (never used to sign) so nobody is signed out; remove it once the old tokens have expired.
   */
  previousJwtSecret?: string;
}

/** One secret, or the secrets a token may be signed with (the current one first). */
export type JwtSecrets = string | readonly string[];

/** The secrets a token may be signed with: JWT_SECRET, then JWT_SECRET_PREVIOUS when set. */
export function verificationSecrets(
  keys: Pick<Keys, 'jwtSecret' | 'previousJwtSecret'>,
): readonly string[] {
  return keys.previousJwtSecret ? [keys.jwtSecret, keys.previousJwtSecret] : [keys.jwtSecret];
}

export interface JwtClaims extends JWTPayload {
  role?: string;
  [claim: string]: unknown;
}

function base64url(input: string | Buffer): string {
  return Buffer.from(input).toString('base64url');
}

/** HS256 signing (synchronous, so keys are available at configuration time). */
export function signHs256(claims: Record<string, unknown>, secret: string): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify(claims));
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/** An API key as Supabase local development issues it: `{iss, role}`, stable for one secret. */
export function apiKey(role: 'anon' | 'service_role', secret: string): string {
  return signHs256({ iss: KEY_ISSUER, role, iat: KEY_IAT, exp: KEY_EXP }, secret);
}

/**
 * A user's access token shaped as GoTrue issues it (role and audience `authenticated`), valid for
 * `ttlSeconds` from now (negative: already expired). For tests and benches, which sign users in
 * without a password.
 */
export function userToken(sub: string, secret: string, ttlSeconds = 3600): string {
  const now = Math.floor(Date.now() / 1000);
  return signHs256(
    {
      sub,
      role: 'authenticated',
      aud: 'authenticated',
      email: `${sub}@example.test`,
      session_id: `session-${sub}`,
      iat: now - 120,
      exp: now + ttlSeconds,
    },
    secret,
  );
}

export function loadKeys(
  env: Record<string, string | undefined> = process.env,
  warn: (msg: string) => void = console.warn,
): Keys {
  const configured = env.JWT_SECRET?.trim();
  const jwtSecret = configured || DEV_JWT_SECRET;
  if (jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters long');
  if (!configured) {
    warn(
      [
        '',
        '!!! JWT_SECRET is not set: using the PUBLIC development secret.',
        '!!! Anyone can mint tokens for this server (including service_role). Set JWT_SECRET',
        '!!! to a random string of at least 32 characters before exposing it to a network.',
        '',
      ].join('\n'),
    );
  }
  const previous = env.JWT_SECRET_PREVIOUS?.trim();
  if (previous && previous.length < 32)
    throw new Error('JWT_SECRET_PREVIOUS must be at least 32 characters long');
  return {
    jwtSecret,
    anonKey: apiKey('anon', jwtSecret),
    serviceRoleKey: apiKey('service_role', jwtSecret),
    usingDevSecret: !configured,
    ...(previous && previous !== jwtSecret ? { previousJwtSecret: previous } : {}),
  };
}

export type JwtFailure = 'expired' | 'invalid';

/** GoTrue's message for a token signed with another secret. */
const SIGNATURE_MISMATCH = 'JWT cryptographic operation failed';

export class JwtError extends Error {
  constructor(
    readonly reason: JwtFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Verifies an HS256 JWT (signature, exp, nbf); anything else (alg none, RS256, garbage) fails.
 * With several secrets (a rotation: `verificationSecrets`) a token signed with any of them
 * verifies; the claims are checked against the secret whose signature matched.
 */
export async function verifyJwt(token: string, secrets: JwtSecrets): Promise<JwtClaims> {
  const parts = token.split('.');
  if (parts.length !== 3)
    throw new JwtError('invalid', `Expected 3 parts in JWT; got ${parts.length}`);
  const [first = '', ...others] = typeof secrets === 'string' ? [secrets] : secrets;
  try {
    return await verifyWith(token, first);
  } catch (err) {
    const wrongSecret = err instanceof JwtError && err.message === SIGNATURE_MISMATCH;
    if (!wrongSecret || others.length === 0) throw err;
    return verifyJwt(token, others);
  }
}

async function verifyWith(token: string, secret: string): Promise<JwtClaims> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      clockTolerance: 30,
    });
    return payload as JwtClaims;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new JwtError('expired', 'JWT expired');
    if (err instanceof joseErrors.JWSSignatureVerificationFailed)
      throw new JwtError('invalid', SIGNATURE_MISMATCH);
    if (err instanceof joseErrors.JOSEAlgNotAllowed)
      throw new JwtError('invalid', 'Wrong or unsupported encoding algorithm');
    if (err instanceof joseErrors.JWTClaimValidationFailed)
      throw new JwtError('invalid', `JWT claim validation failed: ${err.claim}`);
    throw new JwtError('invalid', 'JWT could not be decoded');
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * `verifyJwt` with a small cache of recently verified tokens (they are re-checked for expiry),
 * so a busy client does not pay an HMAC per request.
 */
export function createJwtVerifier(
  secret: JwtSecrets,
  maxEntries = 1000,
): (token: string) => Promise<JwtClaims> {
  const cache = new Map<string, JwtClaims>();
  return async (token) => {
    const hit = cache.get(token);
    if (hit) {
      if (typeof hit.exp !== 'number' || hit.exp > Date.now() / 1000 - 30) return hit;
      cache.delete(token);
    }
    // Frozen: every request with this token shares the object (and its JSON, server/db/as-role.ts).
    const claims = deepFreeze(await verifyJwt(token, secret));
    if (cache.size >= maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(token, claims);
    return claims;
  };
}
