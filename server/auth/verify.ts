/**
 * GET /verify (the e-mailed link: 303 to redirect_to with the session in the fragment, or
 * `?code=` for PKCE) and POST /verify (`{type, token_hash}` or `{type, email, token}` → session).
 */
import type { Context, Hono } from 'hono';
import type { Queryable } from '../db/database';
import { renderAuthMail } from '../mail';
import { clientIp, readJson, str, type AuthDeps } from './context';
import { hashToken, sentAtColumn, tokenColumn, type LinkType } from './email-tokens';
import { AuthHttpError, forbidden, validationFailed } from './errors';
import { limitGuesses } from './rate-limit';
import { findUserFlowState, issueAuthCode } from './pkce';
import { requestReferrer } from './redirects';
import { issueSession, type AuthMethod, type TokenResponse } from './sessions';
import { findUserByColumn, type UserRow } from './users';

const LINK_TYPES: readonly string[] = ['signup', 'invite', 'recovery', 'magiclink', 'email_change'];
const METHOD: Record<LinkType, AuthMethod> = {
  signup: 'email/signup',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
};

const expiredError = () => forbidden('otp_expired', 'Token has expired or is invalid');

interface Found {
  user: UserRow;
  type: LinkType;
  pkce: boolean;
  /** Which column held the token (an e-mail change has one per address). */
  column: string;
}

/** GoTrue's answer to the first of the two links of a secure e-mail change. */
export const SINGLE_CONFIRMATION_ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/** Finds the user whose stored token matches; `email` type means signup or magic link. */
async function findToken(
  tx: Queryable,
  deps: AuthDeps,
  type: string,
  candidates: string[],
): Promise<Found> {
  const types: LinkType[] =
    type === 'email'
      ? ['signup', 'magiclink']
      : LINK_TYPES.includes(type)
        ? [type as LinkType]
        : [];
  if (types.length === 0) throw validationFailed(`Verify requires a verification type`);
  for (const t of types) {
    const columns =
      t === 'email_change'
        ? (['email_change_token_new', 'email_change_token_current'] as const)
        : ([tokenColumn(t)] as const);
    for (const [candidate, column] of candidates.flatMap((c) =>
      columns.map((k) => [c, k] as const),
    )) {
      const user = await findUserByColumn(tx, column, candidate);
      if (!user) continue;
      const { rows } = await tx.query<{ expired: boolean }>(
        `select coalesce(${sentAtColumn(t)}, 'epoch') + make_interval(secs => $2) < now() as expired
         from auth.users where id = $1`,
        [user.id, deps.config.otpExpiry],
      );
      if (rows[0]?.expired) throw expiredError();
      return { user, type: t, pkce: candidate.startsWith('pkce_'), column };
    }
  }
  throw expiredError();
}

/** What consuming a link did: a session follows, or (first of two e-mail links) a message. */
type Consumed =
  { kind: 'done'; emailChanged?: { from: string; to: string } } | { kind: 'single_confirmation' };

/** Applies what the link confirms and clears the token (single use). */
async function consume(tx: Queryable, deps: AuthDeps, found: Found): Promise<Consumed> {
  const { user, type } = found;
  if (type === 'email_change') {
    // GoTrue's emailChangeVerify: with the secure change, the first link (either address)
    // only clears its own token and records one confirmation.
    if (deps.config.secureEmailChange && user.email && !user.email_change_confirm_status) {
      const column =
        found.column === 'email_change_token_current'
          ? 'email_change_token_current'
          : 'email_change_token_new';
      await tx.query(
        `update auth.users set ${column} = '', email_change_confirm_status = 1,
           updated_at = now() where id = $1`,
        [user.id],
      );
      return { kind: 'single_confirmation' };
    }
    await tx.query(
      `update auth.users set email = email_change, email_change = '', email_change_token_new = '',
         email_change_token_current = '', email_change_confirm_status = 0,
         email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
       where id = $1`,
      [user.id],
    );
    await tx.query(
      `update auth.identities set identity_data = identity_data || jsonb_build_object('email',
         (select email from auth.users where id = $1)), updated_at = now()
       where user_id = $1 and provider = 'email'`,
      [user.id],
    );
    return user.email && user.email_change
      ? { kind: 'done', emailChanged: { from: user.email, to: user.email_change } }
      : { kind: 'done' };
  }
  await tx.query(
    `update auth.users set ${tokenColumn(type)} = '',
       email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
     where id = $1`,
    [user.id],
  );
  await tx.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'
     where user_id = $1 and provider = 'email'`,
    [user.id],
  );
  return { kind: 'done' };
}

type Outcome =
  | { kind: 'session'; session: TokenResponse }
  | { kind: 'code'; code: string }
  | { kind: 'message'; message: string };

async function verify(
  c: Context,
  deps: AuthDeps,
  type: string,
  candidates: string[],
  allowCode: boolean,
): Promise<Outcome & { type: LinkType }> {
  let changed: { from: string; to: string } | undefined;
  const out = await deps.db.transaction(async (tx): Promise<Outcome & { type: LinkType }> => {
    const found = await findToken(tx, deps, type, candidates);
    const consumed = await consume(tx, deps, found);
    if (consumed.kind === 'single_confirmation')
      return { kind: 'message', message: SINGLE_CONFIRMATION_ACCEPTED, type: found.type };
    changed = consumed.emailChanged;
    if (found.pkce && allowCode) {
      const flow = await findUserFlowState(tx, found.user.id, METHOD[found.type]);
      if (flow)
        return {
          kind: 'code',
          code: await issueAuthCode(tx, flow, found.user.id),
          type: found.type,
        };
    }
    const session = await issueSession(tx, deps, found.user.id, 'otp', {
      userAgent: c.req.header('user-agent'),
      ip: clientIp(c, deps.config.trustProxy),
    });
    return { kind: 'session', session, type: found.type };
  });
  // The old address is told (GoTrue's email-changed notification), after the change is kept.
  if (changed)
    await deps.mailer.send(
      renderAuthMail('email_changed', {
        to: changed.from,
        oldEmail: changed.from,
        newEmail: changed.to,
      }),
    );
  return out;
}

function withParams(base: string, params: Record<string, string>, where: 'query' | 'hash'): string {
  const url = new URL(base);
  const sorted = new URLSearchParams(Object.entries(params).sort(([a], [b]) => a.localeCompare(b)));
  if (where === 'hash') url.hash = sorted.toString();
  else for (const [k, v] of sorted) url.searchParams.set(k, v);
  return url.toString();
}

export function registerVerifyRoutes(app: Hono, deps: AuthDeps): void {
  app.get('/verify', async (c) => {
    const token = c.req.query('token') ?? '';
    const type = c.req.query('type') ?? '';
    const redirect = requestReferrer(c, deps.config);
    try {
      if (!token) throw validationFailed('Verify requires a token or a token hash');
      const out = await verify(c, deps, type, [token], true);
      if (out.kind === 'code')
        return c.redirect(withParams(redirect, { code: out.code }, 'query'), 303);
      if (out.kind === 'message')
        return c.redirect(
          withParams(
            redirect,
            { message: out.message },
            token.startsWith('pkce_') ? 'query' : 'hash',
          ),
          303,
        );
      const s = out.session;
      const fragment = {
        access_token: s.access_token,
        expires_at: String(s.expires_at),
        expires_in: String(s.expires_in),
        refresh_token: s.refresh_token,
        token_type: 'bearer',
        type: out.type,
      };
      return c.redirect(withParams(redirect, fragment, 'hash'), 303);
    } catch (err) {
      if (!(err instanceof AuthHttpError)) throw err;
      const params = {
        error: err.status === 403 ? 'access_denied' : 'invalid_request',
        error_code: err.code,
        error_description:
          err.code === 'otp_expired' ? 'Email link is invalid or has expired' : err.message,
      };
      let target = withParams(redirect, params, 'hash');
      if (token.startsWith('pkce_')) target = withParams(target, params, 'query');
      return c.redirect(target, 303);
    }
  });

  app.post('/verify', async (c) => {
    const body = await readJson(c);
    const type = str(body.type);
    const tokenHash = str(body.token_hash);
    const otp = str(body.token);
    const email = str(body.email).trim().toLowerCase();
    if (str(body.phone)) throw validationFailed('Phone is not enabled on this server');
    let candidates: string[];
    if (tokenHash) candidates = [tokenHash];
    else if (otp && email) {
      const hash = hashToken(email, otp.trim());
      candidates = [hash, `pkce_${hash}`];
    } else throw validationFailed('Verify requires either a token or a token hash');
    // A six-digit code is guessable: wrong codes count against the address and the client IP
    // like wrong passwords (found by tests/security/tokens.test.ts). Once limited, even the
    // right code waits, so a guesser cannot tell a hit; the link in the mail still works.
    // POST /verify always answers with a session, PKCE or not (as GoTrue's verifyPost).
    const attempt = () => verify(c, deps, type, candidates, false);
    const ip = clientIp(c, deps.config.trustProxy);
    const out = tokenHash
      ? await attempt()
      : await limitGuesses(
          deps.limiters.guesses,
          { email: `otp:email:${email}`, ip: `otp:ip:${ip}` },
          deps.config.rateLimit,
          attempt,
        );
    if (out.kind === 'message') return c.json({ msg: out.message, code: 200 });
    if (out.kind !== 'session') throw new Error('unexpected auth code');
    return c.json(out.session);
  });
}
