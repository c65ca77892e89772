/**
 * The LOCAL DEVELOPMENT IDENTITY PROVIDER, used instead of Google when GOOGLE_CLIENT_ID /
 * GOOGLE_CLIENT_SECRET are not set. It is a small OpenID Connect provider served by this server
 * under /auth/v1/dev-idp: a consent page (clearly "Development sign-in — not Google") where you
 * pick or type a name and e-mail, then the real authorization-code protocol with PKCE (S256)
 * back to /auth/v1/callback, and an id_token signed with RS256 by a key generated at start
 * (published at /dev-idp/jwks). Anyone can sign in as anyone here: never for production.
 */
import { createHash, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { Hono } from 'hono';
import { SignJWT, exportJWK, type JWK } from 'jose';
import type { Database } from '../db/database';
import { renderConsentPage } from './dev-idp-page';

export const DEV_IDP_CLIENT_ID = 'soundloft-dev-client';

interface PendingCode {
  redirectUri: string;
  codeChallenge: string;
  nonce: string;
  name: string;
  email: string;
  expires: number;
}

export interface DevIdp {
  app: Hono;
  issuer: string;
  jwks(): Promise<{ keys: JWK[] }>;
}

const subjectFor = (email: string) =>
  `dev-${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 24)}`;

export function createDevIdp(opts: { issuer: string; db: Database }): DevIdp {
  const { issuer } = opts;
  let keys: { privateKey: KeyObject; publicKey: KeyObject; kid: string } | null = null;
  const keyPair = () => {
    keys ??= {
      ...generateKeyPairSync('rsa', { modulusLength: 2048 }),
      kid: randomBytes(8).toString('hex'),
    };
    return keys;
  };
  const codes = new Map<string, PendingCode>();
  const sweep = () => {
    const now = Date.now();
    for (const [code, pending] of codes) if (pending.expires < now) codes.delete(code);
  };

  const jwks = async () => {
    const { publicKey, kid } = keyPair();
    return { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] };
  };

  const app = new Hono();
  app.get('/.well-known/openid-configuration', (c) =>
    c.json({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['openid', 'email', 'profile'],
    }),
  );
  app.get('/jwks', async (c) => c.json(await jwks()));

  const checkRequest = (q: Record<string, string | undefined>): string | null => {
    if (q.client_id !== DEV_IDP_CLIENT_ID) return 'unknown client_id';
    if (q.response_type !== 'code') return 'response_type must be code';
    if (q.redirect_uri !== issuer.replace(/\/dev-idp$/, '/callback'))
      return 'redirect_uri is not registered for this client';
    if (!q.code_challenge || q.code_challenge_method !== 'S256') return 'PKCE (S256) is required';
    if (!q.state) return 'state is required';
    return null;
  };

  app.get('/authorize', async (c) => {
    const q = c.req.query();
    const problem = checkRequest(q);
    if (problem) return c.text(`Development identity provider: ${problem}`, 400);
    const { rows } = await opts.db.query<{ name: string | null; email: string }>(
      `select identity_data ->> 'name' as name, email from auth.identities
       where provider = 'google' and email is not null order by last_sign_in_at desc nulls last limit 6`,
    );
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    c.header('X-Frame-Options', 'DENY');
    return c.html(renderConsentPage(q, rows));
  });

  app.post('/authorize', async (c) => {
    const form = await c.req.parseBody();
    const q: Record<string, string> = {};
    for (const [k, v] of Object.entries(form)) if (typeof v === 'string') q[k] = v;
    const problem = checkRequest(q);
    if (problem) return c.text(`Development identity provider: ${problem}`, 400);
    const redirect = new URL(q.redirect_uri ?? '');
    redirect.searchParams.set('state', q.state ?? '');
    if (q.action === 'cancel') {
      redirect.searchParams.set('error', 'access_denied');
      redirect.searchParams.set('error_description', 'The user cancelled the sign-in');
      return c.redirect(redirect.toString(), 302);
    }
    const email = (q.email ?? '').trim().toLowerCase();
    const name = (q.name ?? '').trim() || email.split('@')[0] || 'Developer';
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
      return c.text('Development identity provider: enter a valid e-mail address', 400);
    sweep();
    const code = randomBytes(24).toString('base64url');
    codes.set(code, {
      redirectUri: q.redirect_uri ?? '',
      codeChallenge: q.code_challenge ?? '',
      nonce: q.nonce ?? '',
      name: name.slice(0, 100),
      email,
      expires: Date.now() + 60_000,
    });
    redirect.searchParams.set('code', code);
    return c.redirect(redirect.toString(), 302);
  });

  app.post('/token', async (c) => {
    const form = await c.req.parseBody();
    const get = (k: string) => (typeof form[k] === 'string' ? (form[k] as string) : '');
    const fail = (error: string, description: string) =>
      c.json({ error, error_description: description }, 400);
    if (get('grant_type') !== 'authorization_code')
      return fail('unsupported_grant_type', 'only authorization_code');
    if (get('client_id') !== DEV_IDP_CLIENT_ID) return fail('invalid_client', 'unknown client');
    const pending = codes.get(get('code'));
    codes.delete(get('code')); // single use, even when the rest fails
    if (!pending || pending.expires < Date.now())
      return fail('invalid_grant', 'code expired or unknown');
    if (pending.redirectUri !== get('redirect_uri'))
      return fail('invalid_grant', 'redirect_uri mismatch');
    const challenge = createHash('sha256').update(get('code_verifier')).digest('base64url');
    if (challenge !== pending.codeChallenge)
      return fail('invalid_grant', 'PKCE verification failed');
    const { privateKey, kid } = keyPair();
    const now = Math.floor(Date.now() / 1000);
    const idToken = await new SignJWT({
      email: pending.email,
      email_verified: true,
      name: pending.name,
      ...(pending.nonce ? { nonce: pending.nonce } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setSubject(subjectFor(pending.email))
      .setAudience(DEV_IDP_CLIENT_ID)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(privateKey);
    return c.json({
      access_token: randomBytes(24).toString('base64url'),
      token_type: 'Bearer',
      expires_in: 300,
      scope: 'openid email profile',
      id_token: idToken,
    });
  });

  return { app, issuer, jwks };
}
