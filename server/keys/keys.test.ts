import { SignJWT, decodeJwt } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import {
  DEV_JWT_SECRET,
  JwtError,
  apiKey,
  createJwtVerifier,
  loadKeys,
  signHs256,
  userToken,
  verificationSecrets,
  verifyJwt,
} from './keys';
import { checkToken } from '../realtime/auth';
import { signObjectUrl, verifyObjectToken } from '../storage/signed-urls';

const SECRET = 'a-test-secret-with-more-than-32-characters';

describe('loadKeys', () => {
  it('derives stable anon and service_role keys from JWT_SECRET', async () => {
    const keys = loadKeys({ JWT_SECRET: SECRET });
    expect(keys.jwtSecret).toBe(SECRET);
    expect(keys.usingDevSecret).toBe(false);
    expect(loadKeys({ JWT_SECRET: SECRET }).anonKey).toBe(keys.anonKey);
    const anon = await verifyJwt(keys.anonKey, SECRET);
    const service = await verifyJwt(keys.serviceRoleKey, SECRET);
    expect(anon).toMatchObject({ role: 'anon', iss: 'supabase-local' });
    expect(service).toMatchObject({ role: 'service_role', iss: 'supabase-local' });
    expect(anon.exp).toBeGreaterThan(Date.now() / 1000 + 50 * 365 * 24 * 3600);
    expect(typeof anon.iat).toBe('number');
  });

  it('falls back to the documented dev secret with a loud warning, and refuses short secrets', () => {
    const warn = vi.fn();
    const keys = loadKeys({}, warn);
    expect(keys.jwtSecret).toBe(DEV_JWT_SECRET);
    expect(keys.usingDevSecret).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('JWT_SECRET is not set'));
    expect(() => loadKeys({ JWT_SECRET: 'short' })).toThrow(/32 characters/);
  });
});

describe('verifyJwt', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const reason = async (token: string) => {
    try {
      await verifyJwt(token, SECRET);
      return 'ok';
    } catch (err) {
      return err instanceof JwtError ? err.reason : 'other';
    }
  };

  it('accepts HS256 tokens signed by jose or by signHs256', async () => {
    const joseToken = await new SignJWT({ role: 'authenticated', sub: 'u1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await verifyJwt(joseToken, SECRET)).toMatchObject({ sub: 'u1' });
    expect(decodeJwt(signHs256({ a: 1 }, SECRET))).toEqual({ a: 1 });
  });

  it('rejects wrong signature, expiry, alg none, other algorithms and malformed input', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    expect(await reason(signHs256({ role: 'x' }, 'some-other-secret-with-32-characters-xx'))).toBe(
      'invalid',
    );
    expect(await reason(signHs256({ role: 'x', exp: now() - 120 }, SECRET))).toBe('expired');
    expect(await reason(`${b64({ alg: 'none' })}.${b64({ role: 'service_role' })}.`)).toBe(
      'invalid',
    );
    const hs512 = await new SignJWT({ role: 'x' })
      .setProtectedHeader({ alg: 'HS512' })
      .sign(new TextEncoder().encode(SECRET));
    expect(await reason(hs512)).toBe('invalid');
    for (const junk of ['', 'a', 'a.b', 'a.b.c', 'x.y.z.w', '...'])
      expect(await reason(junk), junk).toBe('invalid');
  });

  it('caches verified tokens but still rejects them once expired', async () => {
    const verify = createJwtVerifier(SECRET);
    const token = signHs256({ role: 'anon', exp: now() + 3600 }, SECRET);
    expect(await verify(token)).toMatchObject({ role: 'anon' });
    expect(await verify(token)).toMatchObject({ role: 'anon' });
    await expect(verify(signHs256({ exp: now() - 100 }, SECRET))).rejects.toBeInstanceOf(JwtError);
  });
});

describe('apiKey and userToken', () => {
  it('mint the keys loadKeys returns, and user tokens that verify until their ttl runs out', async () => {
    const keys = loadKeys({ JWT_SECRET: SECRET });
    expect(apiKey('service_role', SECRET)).toBe(keys.serviceRoleKey);
    expect(apiKey('anon', SECRET)).toBe(keys.anonKey);
    expect(await verifyJwt(userToken('u1', SECRET, 60), SECRET)).toMatchObject({
      sub: 'u1',
      role: 'authenticated',
      aud: 'authenticated',
    });
    await expect(verifyJwt(userToken('u1', SECRET, -120), SECRET)).rejects.toMatchObject({
      reason: 'expired',
    });
  });
});

describe('JWT secret rotation (JWT_SECRET_PREVIOUS)', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const NEW = 'the-new-secret-0123456789-abcdefghijklmnop';
  const OLD = 'the-old-secret-0123456789-abcdefghijklmnop';
  const UNKNOWN = 'an-unknown-secret-0123456789-abcdefghijkl';
  const keys = loadKeys({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD });

  it('signs with the new secret and verifies with both', async () => {
    expect(verificationSecrets(keys)).toEqual([NEW, OLD]);
    expect(keys.anonKey).toBe(apiKey('anon', NEW));
    const secrets = verificationSecrets(keys);
    expect(await verifyJwt(userToken('u1', OLD), secrets)).toMatchObject({ sub: 'u1' });
    expect(await verifyJwt(userToken('u2', NEW), secrets)).toMatchObject({ sub: 'u2' });
    await expect(verifyJwt(userToken('u3', UNKNOWN), secrets)).rejects.toMatchObject({
      reason: 'invalid',
    });
    // An old token that expired is expired, not "invalid".
    await expect(verifyJwt(userToken('u4', OLD, -120), secrets)).rejects.toMatchObject({
      reason: 'expired',
    });
    const verify = createJwtVerifier(secrets);
    expect(await verify(userToken('u5', OLD))).toMatchObject({ sub: 'u5' });
    await expect(verify(userToken('u6', UNKNOWN))).rejects.toBeInstanceOf(JwtError);
  });

  it('without JWT_SECRET_PREVIOUS only the current secret verifies', async () => {
    const current = verificationSecrets(loadKeys({ JWT_SECRET: NEW }));
    expect(current).toEqual([NEW]);
    await expect(verifyJwt(userToken('u1', OLD), current)).rejects.toBeInstanceOf(JwtError);
    expect(() => loadKeys({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: 'short' })).toThrow(
      'JWT_SECRET_PREVIOUS must be at least 32 characters long',
    );
  });

  it("holds for realtime's token check and storage's signed URLs", async () => {
    const secrets = verificationSecrets(keys);
    const realtime = (secret: string) =>
      checkToken(signHs256({ role: 'anon', exp: now() + 60 }, secret), secrets);
    expect(await realtime(OLD)).toMatchObject({ ok: true });
    expect(await realtime(UNKNOWN)).toMatchObject({ ok: false, kind: 'signature' });
    const url = (secret: string) =>
      verifyObjectToken(
        secrets,
        signObjectUrl(secret, 'tracks', 'a/b.mp3', 60, 'u1'),
        'tracks',
        'a/b.mp3',
      );
    expect(await url(OLD)).toEqual({ sub: 'u1' });
    await expect(url(UNKNOWN)).rejects.toThrow();
  });
});
