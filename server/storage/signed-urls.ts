/**
 * Signed URLs as Supabase Storage makes them: an HS256 JWT `{url: '<bucket>/<name>', iat, exp}`
 * signed with the project's JWT secret, passed as `?token=`. Soundloft adds `sub`, the id of the
 * user who asked for the URL (absent for anon and the service role): whoever fetches with the
 * token is served as that user, so what audio was served to whom is known (docs/upload.md,
 * "Playback"). Supabase's own verifier ignores claims it does not know.
 */
import { JwtError, signHs256, verifyJwt, type JwtSecrets } from '../keys';
import { StorageError } from './errors';

export function signObjectUrl(
  secret: string,
  bucket: string,
  name: string,
  expiresIn: number,
  sub: string | null = null,
  now = Math.floor(Date.now() / 1000),
): string {
  const claims = { url: `${bucket}/${name}`, ...(sub ? { sub } : {}) };
  return signHs256({ ...claims, iat: now, exp: now + expiresIn }, secret);
}

/** Who a signed URL was made for, from its verified token. */
export interface SignedReader {
  /** The user who asked for the URL; null when anon or the service role signed it. */
  sub: string | null;
}

/** Verifies `token` for `bucket/name`; StorageError otherwise (expired, tampered, other object). */
export async function verifyObjectToken(
  secret: JwtSecrets,
  token: string | undefined,
  bucket: string,
  name: string,
): Promise<SignedReader> {
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
  return { sub: typeof claims.sub === 'string' ? claims.sub : null };
}

/** `expiresIn` of a sign request: a positive whole number of seconds. */
export function parseExpiresIn(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
    throw StorageError.invalidRequest('expiresIn must be a positive integer');
  }
  return n;
}
