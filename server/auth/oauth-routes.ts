/**
 * GET /authorize?provider=google → the provider (Google or the development IdP), then
 * GET|POST /callback → a session (fragment) or `?code=` (PKCE) on redirect_to; and
 * GET /user/identities/authorize for linking Google to the signed-in user.
 * The `state` is an HS256 JWT (10 minutes) naming the flow; the upstream PKCE verifier and nonce
 * are derived from it with HMAC, so nothing secret travels through the browser.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { signHs256, verifyJwt } from '../keys';
import { requestReferrer } from './redirects';
import { clientIp, requireUser, type AuthDeps } from './context';
import { AuthHttpError, badRequest, validationFailed } from './errors';
import { resolveOAuthUser } from './oauth-users';
import { createFlowState, issueAuthCode, pkceParams } from './pkce';
import type { OidcProvider } from './providers';
import { issueSession } from './sessions';

const RESERVED = new Set([
  'provider',
  'redirect_to',
  'scopes',
  'code_challenge',
  'code_challenge_method',
  'skip_http_redirect',
  'state',
  'client_id',
  'redirect_uri',
  'response_type',
  'nonce',
]);

interface OAuthState {
  sid: string;
  provider: 'google';
  referrer: string;
  flow_state_id: string | null;
  link_user_id: string | null;
  exp: number;
}

const derive = (secret: string, purpose: string, sid: string) =>
  createHmac('sha256', secret).update(`${purpose}:${sid}`).digest('base64url');

async function startFlow(
  c: Context,
  deps: AuthDeps,
  provider: OidcProvider | null,
  linkUserId: string | null,
): Promise<string> {
  const q = c.req.query();
  const name = q.provider ?? '';
  if (name !== 'google' || !provider)
    throw validationFailed(
      `Unsupported provider: ${name ? 'provider is not enabled' : 'missing provider'}`,
    );
  const pkce = pkceParams(q.code_challenge, q.code_challenge_method);
  const referrer = requestReferrer(c, deps.config);
  const flowStateId = pkce
    ? await createFlowState(deps.db, pkce, 'google', 'oauth', linkUserId)
    : null;
  const sid = randomUUID();
  const state: OAuthState = {
    sid,
    provider: 'google',
    referrer,
    flow_state_id: flowStateId,
    link_user_id: linkUserId,
    exp: Math.floor(Date.now() / 1000) + 600,
  };
  const verifier = derive(deps.keys.jwtSecret, 'oauth-pkce', sid);
  const extra: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) if (!RESERVED.has(k)) extra[k] = v;
  const scopes = ['openid', 'email', 'profile', ...(q.scopes ?? '').split(/[\s,]+/)]
    .filter((s, i, all) => s && all.indexOf(s) === i)
    .join(' ');
  return provider.authorizationUrl({
    redirectUri: `${deps.config.issuer}/callback`,
    state: signHs256({ ...state, aud: 'soundloft-oauth-state' }, deps.keys.jwtSecret),
    codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
    nonce: derive(deps.keys.jwtSecret, 'oauth-nonce', sid),
    scopes,
    extra,
  });
}

function errorRedirect(referrer: string, error: string, code: string, description: string) {
  const url = new URL(referrer);
  const params = new URLSearchParams({ error, error_code: code, error_description: description });
  for (const [k, v] of params) url.searchParams.set(k, v);
  url.hash = params.toString();
  return url.toString();
}

async function finishFlow(
  c: Context,
  deps: AuthDeps,
  provider: OidcProvider | null,
): Promise<Response> {
  if (!provider) throw validationFailed('Unsupported provider: provider is not enabled');
  const params =
    c.req.method === 'POST'
      ? Object.fromEntries(
          Object.entries(await c.req.parseBody()).filter(([, v]) => typeof v === 'string'),
        )
      : c.req.query();
  const get = (k: string) => (typeof params[k] === 'string' ? (params[k] as string) : '');
  let state: OAuthState;
  try {
    const claims = await verifyJwt(get('state'), deps.keys.jwtSecret);
    if (claims.aud !== 'soundloft-oauth-state') throw new Error('not a state token');
    state = claims as unknown as OAuthState;
  } catch {
    throw badRequest('bad_oauth_state', 'OAuth state parameter is invalid or expired');
  }
  if (get('error'))
    return c.redirect(
      errorRedirect(
        state.referrer,
        get('error'),
        'provider_error',
        get('error_description') || get('error'),
      ),
      303,
    );
  if (!get('code'))
    return c.redirect(
      errorRedirect(
        state.referrer,
        'invalid_request',
        'bad_oauth_callback',
        'OAuth callback with missing authorization code',
      ),
      303,
    );
  try {
    const tokens = await provider.exchange(
      get('code'),
      derive(deps.keys.jwtSecret, 'oauth-pkce', state.sid),
      `${deps.config.issuer}/callback`,
    );
    const identity = await provider.verify(
      tokens.idToken,
      derive(deps.keys.jwtSecret, 'oauth-nonce', state.sid),
    );
    const target = await deps.db.transaction(async (tx) => {
      const userId = await resolveOAuthUser(tx, identity, state.link_user_id, {
        // Anyone can claim any address at the development IdP: never attach it to an existing
        // account by e-mail (link it from the signed-in account instead).
        autoLink: provider.kind === 'google',
      });
      if (state.flow_state_id) {
        const code = await issueAuthCode(tx, state.flow_state_id, userId);
        const url = new URL(state.referrer);
        url.searchParams.set('code', code);
        return url.toString();
      }
      const s = await issueSession(tx, deps, userId, 'oauth', {
        userAgent: c.req.header('user-agent'),
        ip: clientIp(c, deps.config.trustProxy),
      });
      const fragment = new URLSearchParams({
        access_token: s.access_token,
        expires_at: String(s.expires_at),
        expires_in: String(s.expires_in),
        provider_token: tokens.accessToken,
        refresh_token: s.refresh_token,
        token_type: 'bearer',
      });
      const url = new URL(state.referrer);
      url.hash = fragment.toString();
      return url.toString();
    });
    return c.redirect(target, 303);
  } catch (err) {
    if (err instanceof AuthHttpError)
      return c.redirect(errorRedirect(state.referrer, 'server_error', err.code, err.message), 303);
    console.warn('auth: OAuth callback failed:', (err as Error).message);
    return c.redirect(
      errorRedirect(
        state.referrer,
        'server_error',
        'unexpected_failure',
        'Unable to exchange external code',
      ),
      303,
    );
  }
}

export function registerOAuthRoutes(
  app: Hono,
  deps: AuthDeps,
  provider: OidcProvider | null,
): void {
  app.get('/authorize', async (c) => {
    const url = await startFlow(c, deps, provider, null);
    if (c.req.query('skip_http_redirect') === 'true') return c.json({ url });
    return c.redirect(url, 302);
  });
  app.get('/callback', (c) => finishFlow(c, deps, provider));
  app.post('/callback', (c) => finishFlow(c, deps, provider));

  app.get('/user/identities/authorize', async (c) => {
    const { user } = await requireUser(c, deps);
    const url = await startFlow(c, deps, provider, user.id);
    if (c.req.query('skip_http_redirect') === 'false') return c.redirect(url, 302);
    return c.json({ url });
  });
}
