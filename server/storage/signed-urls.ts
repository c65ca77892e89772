/**
 * Signed URLs as Supabase Storage makes them: an HS256 JWT `{url: '<bucket>/<name>', iat, exp}`
 * signed with the project's JWT secret, passed as `?token=`.
 */
import { JwtError, signHs256, verifyJwt } from '../keys';
import { StorageError } from './errors';

export function signObjectUrl(
  secret: string,
  bucket: string,
  name: string,
  expiresIn: number,
  now = Math.floor(Date.now() / 1000),
): string {
  return signHs256({ url: `${bucket}/${name}`, iat: now, exp: now + expiresIn }, secret);
}

/** Verifies `token` for `bucket/name`; StorageError otherwise (expired, tampered, other object). */
export async function verifyObjectToken(
  secret: string,
  token: string | undefined,
  bucket: string,
  name: string,
): Promise<void> {
  if (!token) throw StorageError.invalidRequest('Missing Required Parameter token');
  let claims: Record<string, unknown>;
  try {
    claims = await verifyJwt(token, secret);
  } catch (err) {
    if (err instanceof JwtError && err.reason === 'expired') throw StorageError.expiredSignature();
    throw StorageError.invalidJwt('invalid signature');
  }
  if (typeof claims.exp !== 'number') throw StorageError.invalidJwt('token has no expiry');
  if (claims.url !== `${bucket}/${name}`) throw StorageError.invalidSignature();
}

/** `expiresIn` of a sign request: a positive whole number of seconds. */
export function parseExpiresIn(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
    throw StorageError.invalidRequest('expiresIn must be a positive integer');
  }
  return n;
}
