/**
 * MFA with TOTP: POST /factors (enroll: secret, otpauth URI, QR code as SVG — supabase-js turns
 * it into a data: URL), POST /factors/{id}/challenge, POST /factors/{id}/verify (the session
 * becomes aal2 and gets fresh tokens), DELETE /factors/{id}.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { clientIp, readJson, requireUser, str, type AuthDeps } from './context';
import { limitGuesses } from './rate-limit';
import { badRequest, notFound, unprocessable } from './errors';
import { qrSvg } from './qr';
import { addAmr, tokenResponse } from './sessions';
import { newTotpSecret, otpauthUri, verifyTotp } from './totp';
import { findUserById } from './users';

const CHALLENGE_TTL_SECONDS = 300;
const MAX_UNVERIFIED = 10;

interface FactorRow {
  id: string;
  status: string;
  secret: string;
  factor_type: string;
}

async function ownFactor(deps: AuthDeps, userId: string, id: string): Promise<FactorRow> {
  const { rows } = await deps.db.query<FactorRow>(
    `select id, status, secret, factor_type from auth.mfa_factors where id = $1 and user_id = $2`,
    [/^[0-9a-f-]{36}$/i.test(id) ? id : null, userId],
  );
  if (!rows[0]) throw notFound('mfa_factor_not_found', 'Factor not found');
  return rows[0];
}

export function registerMfaRoutes(app: Hono, deps: AuthDeps): void {
  app.post('/factors', async (c) => {
    const { user, aal } = await requireUser(c, deps);
    const body = await readJson(c);
    const type = str(body.factor_type);
    if (type === 'phone' || type === 'webauthn')
      throw unprocessable(`mfa_${type}_enroll_not_enabled`, `MFA enroll is disabled for ${type}`);
    if (type !== 'totp') throw badRequest('validation_failed', 'factor_type needs to be totp');
    const { rows: factors } = await deps.db.query<{ status: string; friendly_name: string | null }>(
      'select status, friendly_name from auth.mfa_factors where user_id = $1',
      [user.id],
    );
    if (factors.some((f) => f.status === 'verified') && aal !== 'aal2')
      throw unprocessable('insufficient_aal', 'AAL2 required to enroll a new factor');
    const friendlyName = str(body.friendly_name).trim();
    if (friendlyName && factors.some((f) => f.friendly_name === friendlyName))
      throw unprocessable(
        'mfa_factor_name_conflict',
        `A factor with the friendly name "${friendlyName}" for this user already exists`,
      );
    if (factors.filter((f) => f.status === 'unverified').length >= MAX_UNVERIFIED)
      throw unprocessable(
        'too_many_enrolled_mfa_factors',
        'Maximum number of unverified factors reached, unenroll to continue',
      );
    const issuer = str(body.issuer).trim() || 'Soundloft';
    const secret = newTotpSecret();
    const uri = otpauthUri(issuer, user.email ?? user.id, secret);
    const id = randomUUID();
    await deps.db.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret)
       values ($1, $2, $3, 'totp', 'unverified', $4)`,
      [id, user.id, friendlyName || null, secret],
    );
    return c.json({
      id,
      type: 'totp',
      friendly_name: friendlyName,
      totp: { qr_code: qrSvg(uri), secret, uri },
    });
  });

  app.post('/factors/:id/challenge', async (c) => {
    const { user } = await requireUser(c, deps);
    const factor = await ownFactor(deps, user.id, c.req.param('id'));
    const id = randomUUID();
    const ip = clientIp(c, deps.config.trustProxy);
    const { rows } = await deps.db.query<{ expires_at: number }>(
      `with ins as (
         insert into auth.mfa_challenges (id, factor_id, created_at, ip_address)
         values ($1, $2, now(), $3::inet) returning created_at)
       select extract(epoch from created_at)::bigint::int + $4 as expires_at from ins`,
      [id, factor.id, /^[0-9a-f.:]+$/i.test(ip) ? ip : null, CHALLENGE_TTL_SECONDS],
    );
    await deps.db.query('update auth.mfa_factors set last_challenged_at = now() where id = $1', [
      factor.id,
    ]);
    return c.json({ id, type: 'totp', expires_at: Number(rows[0]?.expires_at) });
  });

  app.post('/factors/:id/verify', async (c) => {
    const { user, sessionId } = await requireUser(c, deps);
    const factor = await ownFactor(deps, user.id, c.req.param('id'));
    const body = await readJson(c);
    const { rows } = await deps.db.query<{ id: string; expired: boolean }>(
      `select id, created_at + make_interval(secs => $3) < now() as expired
       from auth.mfa_challenges where id = $1 and factor_id = $2 and verified_at is null`,
      [
        /^[0-9a-f-]{36}$/i.test(str(body.challenge_id)) ? str(body.challenge_id) : null,
        factor.id,
        CHALLENGE_TTL_SECONDS,
      ],
    );
    const challenge = rows[0];
    if (!challenge)
      throw notFound('mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
    if (challenge.expired) {
      await deps.db.query('delete from auth.mfa_challenges where id = $1', [challenge.id]);
      throw unprocessable(
        'mfa_challenge_expired',
        `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
      );
    }
    // Codes are guesses: wrong ones count per factor and per client IP in auth.rate_limits
    // (shared by every node), as wrong passwords do; 429 once either is used up.
    const ip = clientIp(c, deps.config.trustProxy);
    const step = await limitGuesses(
      deps.limiters.guesses,
      { email: `mfa:factor:${factor.id}`, ip: `mfa:ip:${ip}` },
      deps.config.rateLimit,
      async () => {
        const matched = verifyTotp(factor.secret, str(body.code).trim());
        if (matched === null)
          throw unprocessable('mfa_verification_failed', 'Invalid TOTP code entered');
        return matched;
      },
    );

    const session = await deps.db.transaction(async (tx) => {
      // A code is accepted once: the factor's last accepted step must be older (a replayed or
      // an earlier code is refused, on whatever node it arrives).
      const { rows: unused } = await tx.query(
        `update auth.mfa_factors set last_totp_step = $2
         where id = $1 and (last_totp_step is null or last_totp_step < $2) returning id`,
        [factor.id, step],
      );
      if (unused.length === 0)
        throw unprocessable('mfa_verification_failed', 'Invalid TOTP code entered');
      await tx.query('delete from auth.mfa_challenges where id = $1', [challenge.id]);
      await tx.query(
        `update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`,
        [factor.id],
      );
      await tx.query(
        `update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1`,
        [sessionId, factor.id],
      );
      await addAmr(tx, sessionId, 'totp');
      // Fresh tokens for the upgraded session: the active refresh token is swapped.
      const { rows: active } = await tx.query<{ token: string }>(
        `update auth.refresh_tokens set revoked = true, updated_at = now()
         where session_id = $1 and revoked = false returning token`,
        [sessionId],
      );
      const refreshToken = randomBytes(24).toString('base64url');
      await tx.query(
        `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, session_id, parent)
         values ('00000000-0000-0000-0000-000000000000', $1, $2, false, $3, $4)`,
        [refreshToken, user.id, sessionId, active[0]?.token ?? null],
      );
      const fresh = await findUserById(tx, user.id);
      return tokenResponse(tx, deps, fresh ?? user, sessionId, refreshToken);
    });
    return c.json(session);
  });

  app.delete('/factors/:id', async (c) => {
    const { user, aal } = await requireUser(c, deps);
    const factor = await ownFactor(deps, user.id, c.req.param('id'));
    if (factor.status === 'verified' && aal !== 'aal2')
      throw unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor');
    await deps.db.transaction(async (tx) => {
      await tx.query(
        `update auth.sessions set aal = 'aal1', factor_id = null where factor_id = $1`,
        [factor.id],
      );
      await tx.query('delete from auth.mfa_factors where id = $1', [factor.id]);
    });
    return c.json({ id: factor.id });
  });
}
