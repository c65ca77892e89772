/**
 * Sessions, access tokens and refresh tokens, as GoTrue keeps them: one auth.sessions row per
 * sign-in, the JWT's `amr` from auth.mfa_amr_claims, and a chain of refresh tokens per session
 * (each refresh revokes its token and issues a child; `parent` links them).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';
import { signHs256 } from '../keys';
import type { AuthDeps } from './context';
import { badRequest } from './errors';
import { countryOf } from './place';
import {
  appMetadata,
  ensureProfile,
  findUserById,
  isBanned,
  userJson,
  type UserRow,
} from './users';

/** GoTrue's authentication methods (the `amr` entries). */
export type AuthMethod =
  | 'password'
  | 'otp'
  | 'oauth'
  | 'totp'
  | 'recovery'
  | 'invite'
  | 'magiclink'
  | 'email/signup'
  | 'email_change';

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
  [extra: string]: unknown;
}

export interface ClientInfo {
  userAgent?: string | undefined;
  ip?: string | undefined;
}

const newRefreshToken = () => randomBytes(24).toString('base64url');

function inet(ip: string | undefined): string | null {
  return ip && /^[0-9a-f.:]+$/i.test(ip) ? ip : null;
}

async function sessionClaims(tx: Queryable, sessionId: string) {
  const { rows: session } = await tx.query<{ aal: string | null }>(
    'select aal::text as aal from auth.sessions where id = $1',
    [sessionId],
  );
  const { rows: amr } = await tx.query<{ method: string; ts: number }>(
    `select authentication_method as method, extract(epoch from created_at)::bigint::int as ts
     from auth.mfa_amr_claims where session_id = $1 order by created_at desc`,
    [sessionId],
  );
  return {
    aal: session[0]?.aal ?? 'aal1',
    amr: amr.map((r) => ({ method: r.method, timestamp: Number(r.ts) })),
  };
}

/** The access token (HS256, JWT_SECRET) with GoTrue's claims, and the session response. */
export async function tokenResponse(
  tx: Queryable,
  deps: AuthDeps,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
): Promise<TokenResponse> {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + deps.config.jwtExpiry;
  const { aal, amr } = await sessionClaims(tx, sessionId);
  const claims = {
    aud: user.aud ?? 'authenticated',
    exp,
    iat: now,
    iss: deps.config.issuer,
    sub: user.id,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: appMetadata(user),
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || 'authenticated',
    aal,
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  return {
    access_token: signHs256(claims, deps.keys.jwtSecret),
    token_type: 'bearer',
    expires_in: deps.config.jwtExpiry,
    expires_at: exp,
    refresh_token: refreshToken,
    user: await userJson(tx, user),
  };
}

/** Records an authentication method on a session (repeats refresh its timestamp). */
export async function addAmr(tx: Queryable, sessionId: string, method: AuthMethod): Promise<void> {
  await tx.query(
    `insert into auth.mfa_amr_claims (session_id, authentication_method, created_at, updated_at)
     values ($1, $2, now(), now())
     on conflict (session_id, authentication_method)
     do update set created_at = now(), updated_at = now()`,
    [sessionId, method],
  );
}

/** A new session for `user` (a sign-in): session row, amr, first refresh token, profile check. */
export async function issueSession(
  tx: Queryable,
  deps: AuthDeps,
  userId: string,
  method: AuthMethod,
  client: ClientInfo = {},
): Promise<TokenResponse> {
  const sessionId = randomUUID();
  await tx.query(
    `insert into auth.sessions
       (id, user_id, created_at, updated_at, aal, refreshed_at, user_agent, ip, country)
     values ($1, $2, now(), now(), 'aal1', now() at time zone 'utc', $3, $4, $5)`,
    [sessionId, userId, client.userAgent ?? null, inet(client.ip), countryOf(inet(client.ip))],
  );
  await addAmr(tx, sessionId, method);
  const refreshToken = newRefreshToken();
  await tx.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, session_id, parent)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, $3, null)`,
    [refreshToken, userId, sessionId],
  );
  await tx.query('update auth.users set last_sign_in_at = now() where id = $1', [userId]);
  await tx.query(
    `update auth.identities set last_sign_in_at = now()
     where user_id = $1 and provider = $2`,
    [userId, method === 'oauth' ? 'google' : 'email'],
  );
  const user = await findUserById(tx, userId);
  if (!user) throw new Error('user vanished while signing in');
  await ensureProfile(tx, user);
  return tokenResponse(tx, deps, user, sessionId, refreshToken);
}

interface RefreshRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  parent: string | null;
  session_id: string | null;
  updated_at: string;
}

/**
 * grant_type=refresh_token with GoTrue's semantics: an active token is swapped for a child; a
 * revoked token that is the parent of the session's active token returns that active token (the
 * client lost the previous answer); any other revoked token is accepted only within the reuse
 * interval, and past it revokes every token of the session and ends it ("Already Used").
 */
export async function refreshGrant(
  deps: AuthDeps,
  token: string,
  client: ClientInfo,
): Promise<TokenResponse> {
  let familyRevoked = false;
  const result = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<RefreshRow>(
      `select id::text, token, user_id, revoked, parent, session_id, updated_at
       from auth.refresh_tokens where token = $1 for update`,
      [token],
    );
    const row = rows[0];
    if (!row)
      throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    const user = await findUserById(tx, row.user_id);
    if (!user)
      throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    if (isBanned(user)) throw badRequest('user_banned', 'Invalid Refresh Token: User Banned');
    const { rows: sessions } = await tx.query<{ id: string; ended: boolean }>(
      `select id, coalesce(not_after <= now(), false) as ended from auth.sessions
       where id = $1 for update`,
      [row.session_id],
    );
    const sessionId = sessions[0]?.id;
    if (!sessionId)
      throw badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found');
    if (sessions[0]?.ended)
      throw badRequest('session_expired', 'Invalid Refresh Token: Session Expired');

    let issued: string | null = null;
    if (row.revoked) {
      const { rows: active } = await tx.query<{ token: string; parent: string | null }>(
        `select token, parent from auth.refresh_tokens
         where session_id = $1 and revoked = false order by id desc limit 1`,
        [sessionId],
      );
      if (active[0] && active[0].parent === row.token) {
        issued = active[0].token;
      } else {
        const { rows: age } = await tx.query<{ expired: boolean }>(
          `select now() > $1::timestamptz + make_interval(secs => $2) as expired`,
          [row.updated_at, deps.config.refreshTokenReuseInterval],
        );
        if (age[0]?.expired) {
          // Possible theft: every token of the session is revoked and the session ends
          // (its access tokens stop working too, see requireUser).
          await tx.query(
            'update auth.refresh_tokens set revoked = true where session_id = $1 and not revoked',
            [sessionId],
          );
          await tx.query('update auth.sessions set not_after = now() where id = $1', [sessionId]);
          familyRevoked = true;
          return null;
        }
      }
    }
    if (!issued) {
      issued = newRefreshToken();
      await tx.query(
        'update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1::bigint',
        [row.id],
      );
      await tx.query(
        `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, session_id, parent)
         values ('00000000-0000-0000-0000-000000000000', $1, $2, false, $3, $4)`,
        [issued, user.id, sessionId, row.token],
      );
    }
    await tx.query(
      `update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now(),
         user_agent = $2, ip = $3, country = $4 where id = $1`,
      [sessionId, client.userAgent ?? null, inet(client.ip), countryOf(inet(client.ip))],
    );
    return tokenResponse(tx, deps, user, sessionId, issued);
  });
  if (familyRevoked || !result)
    throw badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used');
  return result;
}
