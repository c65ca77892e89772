/**
 * PKCE (RFC 7636) as GoTrue does it: the client sends `code_challenge` (+ method `s256` or
 * `plain`) when a flow starts; auth.flow_state remembers it; when the flow ends GoTrue hands out
 * an auth code (`?code=` on the redirect) that `POST /token?grant_type=pkce` exchanges, with the
 * verifier, for a session.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database';
import type { AuthDeps } from './context';
import { badRequest, forbidden, notFound } from './errors';
import { issueSession, type AuthMethod, type ClientInfo, type TokenResponse } from './sessions';

/** An auth code must be exchanged within 5 minutes of being issued (GoTrue's default). */
const FLOW_STATE_TTL_SECONDS = 300;

export interface PkceParams {
  codeChallenge: string;
  method: 's256' | 'plain';
}

/** Validates `code_challenge`/`code_challenge_method`: null when the request is not PKCE. */
export function pkceParams(challenge: unknown, method: unknown): PkceParams | null {
  const c = typeof challenge === 'string' ? challenge : '';
  const m = typeof method === 'string' ? method.toLowerCase() : '';
  if (!c && !m) return null;
  if (!c || !m)
    throw badRequest(
      'validation_failed',
      'PKCE flow requires code_challenge_method and code_challenge',
    );
  if (m !== 's256' && m !== 'plain')
    throw badRequest('validation_failed', `code challenge method not supported: ${m}`);
  if (c.length < 43 || c.length > 128)
    throw badRequest('validation_failed', 'code challenge has to be between 43 and 128 characters');
  return { codeChallenge: c, method: m };
}

export async function createFlowState(
  tx: Queryable,
  pkce: PkceParams,
  providerType: string,
  method: AuthMethod,
  userId: string | null,
): Promise<string> {
  const id = randomUUID();
  await tx.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge,
       provider_type, authentication_method, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, now(), now())`,
    [id, userId, randomUUID(), pkce.method, pkce.codeChallenge, providerType, method],
  );
  return id;
}

/** Marks a flow as finished for `userId` and returns the auth code to redirect with. */
export async function issueAuthCode(
  tx: Queryable,
  flowStateId: string,
  userId: string,
): Promise<string> {
  const { rows } = await tx.query<{ auth_code: string }>(
    `update auth.flow_state set user_id = $2, auth_code_issued_at = now(), updated_at = now()
     where id = $1 returning auth_code`,
    [flowStateId, userId],
  );
  if (!rows[0])
    throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
  return rows[0].auth_code;
}

/** The newest pending flow of a user for an e-mailed link (signup, recovery, ...). */
export async function findUserFlowState(
  tx: Queryable,
  userId: string,
  method: AuthMethod,
): Promise<string | null> {
  const { rows } = await tx.query<{ id: string }>(
    `select id from auth.flow_state where user_id = $1 and authentication_method = $2
     order by created_at desc limit 1`,
    [userId, method],
  );
  return rows[0]?.id ?? null;
}

function challengeOf(verifier: string, method: string): string {
  return method === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
}

/** grant_type=pkce: auth code + verifier → a session (the flow state is used up). */
export async function pkceGrant(
  deps: AuthDeps,
  authCode: string,
  verifier: string,
  client: ClientInfo,
): Promise<TokenResponse> {
  if (!authCode || !verifier)
    throw badRequest(
      'validation_failed',
      'invalid request: both auth code and code verifier should be non-empty',
    );
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      id: string;
      user_id: string | null;
      code_challenge: string;
      code_challenge_method: string;
      authentication_method: AuthMethod;
      expired: boolean;
    }>(
      `select id, user_id, code_challenge, code_challenge_method, authentication_method,
              coalesce(auth_code_issued_at, created_at) + make_interval(secs => $2) < now() as expired
       from auth.flow_state where auth_code = $1 for update`,
      [authCode, FLOW_STATE_TTL_SECONDS],
    );
    const flow = rows[0];
    if (!flow || !flow.user_id)
      throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    if (flow.expired) {
      await tx.query('delete from auth.flow_state where id = $1', [flow.id]);
      throw badRequest('flow_state_expired', 'invalid flow state, flow state has expired');
    }
    const expected = Buffer.from(flow.code_challenge);
    const actual = Buffer.from(challengeOf(verifier, flow.code_challenge_method));
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual))
      throw forbidden(
        'bad_code_verifier',
        'code challenge does not match previously saved code verifier',
      );
    await tx.query('delete from auth.flow_state where id = $1', [flow.id]);
    return issueSession(tx, deps, flow.user_id, flow.authentication_method, client);
  });
}
