/** Unit tests: TOTP (RFC 6238 vectors), the QR image, redirect checks, errors. */
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { createDevMailbox } from '../mail';
import { createAuthApp } from './app';
import { loadAuthConfig } from './config';
import { AuthHttpError, OAuthError, errorBody, weakPassword } from './errors';
import { qrMatrix, qrSvg } from './qr';
import { readQrSvg } from './test-support';
import { compileAllowPattern, isRedirectUrlValid } from './redirects';
import { Secret } from 'otpauth';
import { otpauthUri, totp, verifyTotp } from './totp';

const base32Encode = (bytes: Buffer) => new Secret({ buffer: new Uint8Array(bytes).buffer }).base32;

describe('TOTP', () => {
  const secret = Buffer.from('12345678901234567890');
  it('matches the RFC 6238 SHA-1 test vectors (last six digits)', () => {
    for (const [t, code] of [
      [59, '287082'],
      [1111111109, '081804'],
      [1111111111, '050471'],
      [1234567890, '005924'],
      [2000000000, '279037'],
    ] as const) {
      expect(totp(base32Encode(secret), t * 1000)).toBe(code);
    }
  });

  it('accepts ±1 step and nothing further', () => {
    const b32 = base32Encode(secret);
    const now = 1_700_000_000_000;
    expect(verifyTotp(b32, totp(b32, now - 30_000), now)).not.toBeNull();
    expect(verifyTotp(b32, totp(b32, now + 30_000), now)).not.toBeNull();
    expect(verifyTotp(b32, totp(b32, now - 90_000), now)).toBeNull();
    expect(verifyTotp(b32, 'abcdef', now)).toBeNull();
  });

  it('builds the otpauth URI', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(otpauthUri('Soundloft', 'a@b.c', 'ABC')).toBe(
      'otpauth://totp/Soundloft:a%40b.c?secret=ABC&issuer=Soundloft&algorithm=SHA1&digits=6&period=30',
    );
  });
});

describe('QR code of the enrolment URI', () => {
  it("draws the qrcode package's symbol as one SVG path that an independent decoder reads back", () => {
    const uri = otpauthUri(
      'Soundloft',
      'someone.with.a.long.address@example.test',
      'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    );
    for (const text of ['A', 'Hello, world! 123', uri, uri + uri])
      expect(readQrSvg(qrSvg(text))).toBe(text);
    expect(qrMatrix(uri + uri).length).toBeGreaterThanOrEqual(45); // version 7+: version blocks
    const svg = qrSvg('x');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 29 29"/);
    expect(svg).not.toContain('#');
  });
});

describe('Google configuration', () => {
  const make = (env: Record<string, string>) =>
    createAuthApp({
      db: {} as Database,
      keys: { jwtSecret: 'x'.repeat(32) },
      mailer: createDevMailbox({ log: () => {} }),
      env,
      publicUrl: 'http://localhost:8787',
    });
  it('turns the development IdP off in production (unless DEV_IDP=true)', async () => {
    const prod = make({ NODE_ENV: 'production' });
    expect((await (await prod.request('/settings')).json()).external.google).toBe(false);
    expect((await prod.request('/authorize?provider=google')).status).toBe(400);
    expect((await prod.request('/dev-idp/jwks')).status).toBe(404);
    const dev = make({ NODE_ENV: 'production', DEV_IDP: 'true' });
    expect((await dev.request('/dev-idp/jwks')).status).toBe(200);
  });
  it('sends the browser to Google with PKCE and a nonce when configured', async () => {
    const app = make({
      GOOGLE_CLIENT_ID: 'cid.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 's',
    });
    const res = await app.request('/authorize?provider=google&prompt=select_account');
    const url = new URL(res.headers.get('location')!);
    expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'cid.apps.googleusercontent.com',
      redirect_uri: 'http://localhost:8787/auth/v1/callback',
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      prompt: 'select_account',
    });
    expect(url.searchParams.get('nonce')).toBeTruthy();
  });
});

describe('redirects, limiter, errors', () => {
  // GoTrue's own cases (supabase/auth internal/utilities/request_test.go).
  const site = (siteUrl: string, allow = '') =>
    loadAuthConfig({ SITE_URL: siteUrl, ADDITIONAL_REDIRECT_URLS: allow }, 'http://localhost:8787');
  it('allows the site: same scheme, host and port, any port on loopback hosts', () => {
    for (const [siteUrl, url, want] of [
      ['https://example.com', 'https://example.com/path', true],
      ['https://example.com', 'http://example.com/path', false],
      ['http://example.com', 'https://example.com/path', false],
      ['https://example.com', 'https://example.com:8443/path', false],
      ['https://example.com:9000', 'https://example.com:9000/path', true],
      ['https://example.com:9000', 'https://example.com/path', false],
      ['https://example.com:9000', 'https://example.com:9001/path', false],
      ['http://localhost:3000', 'http://localhost:8080/callback', true],
      ['http://127.0.0.1:3000', 'http://127.0.0.1:8080/callback', true],
      ['http://localhost:3000', 'http://localhost/callback', true],
      ['https://localhost:3000', 'http://localhost:8080/callback', false],
    ] as const)
      expect([siteUrl, url, isRedirectUrlValid(site(siteUrl), url)]).toEqual([siteUrl, url, want]);
  });

  it('matches the allow list as gobwas globs with . and / as separators, never odd hosts', () => {
    const config = site(
      'https://example.com',
      'http://localhost:8000/*, http://*.localhost:8000/*, http://*:12345/*, http://**:12345/*',
    );
    for (const [url, want] of [
      ['http://localhost:8000/path', true],
      ['http://localhost:3000', false],
      ['http://localhost:8000', false],
      ['http://localhost:8000/path/to/page', false],
      ['http://localhost:8000/path?param=1', true],
      ['http://123?.localhost:8000/path', false],
      ['http://123.123.123.123?localhost:8000/path', false],
      ['http://[65e7:9410:d8b6:e227:58cd:e55b:8fc0:206d]?localhost:8000/path', false],
      ['http://65e7:9410:d8b6:e227:58cd:e55b:8fc0:206d?localhost:8000/path', false],
      ['http://127.0.0.1:12345/path', true],
      ['http://[0:0:0:0:0:0:0:1]:12345/path', true],
      ['https://example.com/dashboard', true],
      ['http://example.com/dashboard', false],
      ['https://example.com:8443/dashboard', false],
      ['http://2130706433/', false],
      ['javascript:alert(1)', false],
      ['//evil.example', false],
      ['', false],
    ] as const)
      expect([url, isRedirectUrlValid(config, url)]).toEqual([url, want]);
    const apps = site(
      'http://localhost:8787',
      'https://app.example.com/callback, soundloft://auth, https://*.example.org/a/**, https://x?.example.net/[!0-9]',
    );
    for (const [url, want] of [
      ['https://app.example.com/callback', true],
      ['https://app.example.com/callback#frag', true],
      ['https://app.example.com/callback/more', false],
      ['soundloft://auth', true],
      ['https://eu.example.org/a/x/y', true],
      ['https://eu.example.org/c/x', false],
      ['https://eu.example.org.evil.test/a/x', false],
      ['https://eu.west.example.org/a/x', false],
      ['https://x1.example.net/q', true],
      ['https://x1.example.net/7', false],
    ] as const)
      expect([url, isRedirectUrlValid(apps, url)]).toEqual([url, want]);
    expect(compileAllowPattern('https://a.b/\\*').test('https://a.b/*')).toBe(true);
  });

  it('shapes errors as GoTrue does', () => {
    const e = new AuthHttpError(400, 'invalid_credentials', 'Invalid login credentials');
    expect(errorBody(e, true)).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
    expect(errorBody(e, false)).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
    expect(errorBody(new OAuthError('invalid_grant', 'x'), true)).toEqual({
      error: 'invalid_grant',
      error_description: 'x',
    });
    expect(errorBody(weakPassword(6), true)).toMatchObject({
      weak_password: { reasons: ['length'] },
    });
  });
});
