/**
 * TOTP (RFC 6238): HMAC-SHA1, 30-second steps, 6 digits, base32 secrets, through the `otpauth`
 * package (kept, audited against the RFC vectors; auth-units.test.ts checks them here too).
 * The e2e tests compute their codes with the same package.
 */
import { Secret, TOTP } from 'otpauth';

const PERIOD = 30;

const totpOf = (secretBase32: string) =>
  new TOTP({
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
  });

/** A new 160-bit secret, base32 (32 characters), as authenticator apps expect. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

export const timeStep = (ms: number = Date.now()) => Math.floor(ms / 1000 / PERIOD);

export function totp(secretBase32: string, ms: number = Date.now()): string {
  return totpOf(secretBase32).generate({ timestamp: ms });
}

/** The matching time step (current ±`window`), or null. */
export function verifyTotp(
  secretBase32: string,
  code: string,
  ms: number = Date.now(),
  window = 1,
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: ms, window });
  return delta === null ? null : timeStep(ms) + delta;
}

export function otpauthUri(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const q = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: '6',
    period: String(PERIOD),
  });
  return `otpauth://totp/${label}?${q.toString()}`;
}
