/**
 * The "google" sign-in provider: real Google OpenID Connect when configured, else the local
 * development identity provider (dev-idp.ts). Both run the authorization-code flow with PKCE
 * (S256) and a nonce, and their id_token is verified (signature, issuer, audience, expiry, nonce).
 */
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { AuthConfig } from './config';
import { DEV_IDP_CLIENT_ID, type DevIdp } from './dev-idp';

export interface ProviderTokens {
  idToken: string;
  accessToken: string;
  refreshToken?: string;
}

export interface IdentityClaims {
  iss: string;
  sub: string;
  email: string;
  emailVerified: boolean;
  name?: string;
  picture?: string;
}

export interface OidcProvider {
  /** 'google' for the real one, 'development' for the local stand-in. */
  kind: 'google' | 'development';
  authorizationUrl(p: {
    redirectUri: string;
    state: string;
    codeChallenge: string;
    nonce: string;
    scopes: string;
    extra: Record<string, string>;
  }): string;
  exchange(code: string, verifier: string, redirectUri: string): Promise<ProviderTokens>;
  verify(idToken: string, nonce: string): Promise<IdentityClaims>;
}

type AuthorizationParams = Parameters<OidcProvider['authorizationUrl']>[0];

/**
 * An OIDC authorization-code request with PKCE (S256). Provider-specific `extra` parameters go
 * first, so they can never override the protocol's own.
 */
function authorizationCodeUrl(
  endpoint: string,
  clientId: string,
  p: AuthorizationParams,
  extra: Record<string, string> = p.extra,
): string {
  const url = new URL(endpoint);
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('redirect_uri', p.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', p.scopes);
  url.searchParams.set('state', p.state);
  url.searchParams.set('nonce', p.nonce);
  url.searchParams.set('code_challenge', p.codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

function toClaims(payload: JWTPayload, nonce: string): IdentityClaims {
  if (payload.nonce !== nonce) throw new Error('id_token nonce mismatch');
  const p = payload as JWTPayload & Record<string, unknown>;
  if (typeof p.sub !== 'string' || typeof p.email !== 'string')
    throw new Error('id_token without sub or email');
  return {
    iss: String(p.iss),
    sub: p.sub,
    email: p.email.toLowerCase(),
    emailVerified: p.email_verified === true || p.email_verified === 'true',
    ...(typeof p.name === 'string' ? { name: p.name } : {}),
    ...(typeof p.picture === 'string' ? { picture: p.picture } : {}),
  };
}

async function tokenRequest(
  call: (body: URLSearchParams) => Promise<Response>,
  body: Record<string, string>,
): Promise<ProviderTokens> {
  const res = await call(new URLSearchParams(body));
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok || typeof json.id_token !== 'string')
    throw new Error(
      `token exchange failed: ${String(json.error_description ?? json.error ?? res.status)}`,
    );
  return {
    idToken: json.id_token,
    accessToken: typeof json.access_token === 'string' ? json.access_token : '',
    ...(typeof json.refresh_token === 'string' ? { refreshToken: json.refresh_token } : {}),
  };
}

const GOOGLE = {
  authorize: 'https://accounts.google.com/o/oauth2/v2/auth',
  token: 'https://oauth2.googleapis.com/token',
  jwks: 'https://www.googleapis.com/oauth2/v3/certs',
  issuers: ['https://accounts.google.com', 'accounts.google.com'],
};

export function googleProvider(
  creds: { clientId: string; clientSecret: string },
  fetcher: typeof fetch = fetch,
): OidcProvider {
  const keys = createRemoteJWKSet(new URL(GOOGLE.jwks));
  return {
    kind: 'google',
    authorizationUrl: (params) => authorizationCodeUrl(GOOGLE.authorize, creds.clientId, params),
    exchange: (code, verifier, redirectUri) =>
      tokenRequest(
        (body) =>
          fetcher(GOOGLE.token, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body,
          }),
        {
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: redirectUri,
          client_id: creds.clientId,
          client_secret: creds.clientSecret,
        },
      ),
    async verify(idToken, nonce) {
      const { payload } = await jwtVerify(idToken, keys, {
        issuer: GOOGLE.issuers,
        audience: creds.clientId,
        algorithms: ['RS256'],
      });
      return toClaims(payload, nonce);
    },
  };
}

/** The development provider, spoken to in-process (its token endpoint is a Hono app). */
export function devProvider(idp: DevIdp): OidcProvider {
  return {
    kind: 'development',
    // The development provider takes no provider-specific parameters (e.g. prompt).
    authorizationUrl: (params) =>
      authorizationCodeUrl(`${idp.issuer}/authorize`, DEV_IDP_CLIENT_ID, params, {}),
    exchange: (code, verifier, redirectUri) =>
      tokenRequest(
        async (body) =>
          idp.app.request('/token', {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body,
          }),
        {
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: redirectUri,
          client_id: DEV_IDP_CLIENT_ID,
        },
      ),
    async verify(idToken, nonce) {
      const { payload } = await jwtVerify(idToken, createLocalJWKSet(await idp.jwks()), {
        issuer: idp.issuer,
        audience: DEV_IDP_CLIENT_ID,
        algorithms: ['RS256'],
      });
      return toClaims(payload, nonce);
    },
  };
}

/** Google when configured, else the development IdP when allowed, else none (Google off). */
export function createProvider(config: AuthConfig, idp: DevIdp): OidcProvider | null {
  if (config.google) return googleProvider(config.google);
  return config.devIdp ? devProvider(idp) : null;
}
