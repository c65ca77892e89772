/**
 * The signed-in user's endpoints: GET/PUT /user, POST /logout?scope=, and
 * DELETE /user/identities/{id}.
 */
import { randomInt } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { renderAuthMail } from '../mail';
import { clientIp, obj, readJson, requireUser, str, validateEmail, type AuthDeps } from './context';
import { limitGuesses } from './rate-limit';
import { requestReferrer } from './redirects';
import {
  checkMailFrequency,
  createEmailToken,
  hashToken,
  sendEmailChangeMails,
} from './email-tokens';
import { badRequest, unprocessable, validationFailed } from './errors';
import { checkPassword, hashPassword, validatePassword } from './passwords';
import { createFlowState, pkceParams } from './pkce';
import { findUserByEmail, findUserById, listIdentities, userJson, type UserRow } from './users';

/** A code from GET /reauthenticate (GoTrue's nonce): valid once, for `otpExpiry` seconds. */
async function consumeNonce(deps: AuthDeps, user: UserRow, nonce: string): Promise<void> {
  const { rows } = await deps.db.query(
    `update auth.users set reauthentication_token = '', updated_at = now()
     where id = $1 and reauthentication_token = $2 and reauthentication_token <> ''
       and reauthentication_sent_at + make_interval(secs => $3) > now()
     returning id`,
    [user.id, hashToken(user.email ?? '', nonce.trim()), deps.config.otpExpiry],
  );
  if (rows.length === 0)
    throw badRequest('reauthentication_not_valid', 'Verification code is invalid or has expired');
}

/** Methods whose sign-in proved access to the inbox, as a reauthentication code does. */
const INBOX_METHODS = ['otp', 'recovery', 'magiclink'];

/**
 * A password change must be proven (docs/account.md): by a reauthentication code (`nonce`,
 * consumed before), by the current password (`current_password`, counted as a guess like a
 * sign-in), or by a session that an e-mailed link opened within the code lifetime (the reset-
 * password flow). Else 400 reauthentication_needed, GoTrue's code.
 */
async function provePasswordChange(
  c: Context,
  deps: AuthDeps,
  user: UserRow,
  sessionId: string,
  body: Record<string, unknown>,
): Promise<void> {
  const current = typeof body.current_password === 'string' ? body.current_password : '';
  if (current) {
    const ip = clientIp(c, deps.config.trustProxy);
    await limitGuesses(
      deps.limiters.guesses,
      { email: `password:email:${user.email ?? user.id}`, ip: `password:ip:${ip}` },
      deps.config.rateLimit,
      async () => {
        if (!(await checkPassword(current, user.encrypted_password)))
          throw badRequest('invalid_credentials', 'Current password is incorrect');
      },
    );
    return;
  }
  const { rows } = await deps.db.query(
    `select 1 from auth.mfa_amr_claims where session_id = $1
       and authentication_method = any($2::text[])
       and updated_at + make_interval(secs => $3) > now()`,
    [sessionId, INBOX_METHODS, deps.config.otpExpiry],
  );
  if (rows.length === 0)
    throw badRequest('reauthentication_needed', 'Password update requires reauthentication');
}

export function registerUserRoutes(app: Hono, deps: AuthDeps): void {
  app.get('/reauthenticate', async (c) => {
    const { user } = await requireUser(c, deps);
    if (!user.email)
      throw unprocessable('validation_failed', 'Reauthentication requires an email address');
    await checkMailFrequency(deps, 'reauthentication', user.email);
    const otp = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await deps.db.query(
      `update auth.users set reauthentication_token = $2, reauthentication_sent_at = now()
       where id = $1`,
      [user.id, hashToken(user.email, otp)],
    );
    await deps.mailer.send(renderAuthMail('reauthentication', { to: user.email, otp }));
    return c.json({});
  });

  app.get('/user', async (c) => {
    const { user } = await requireUser(c, deps);
    return c.json(await userJson(deps.db, user));
  });

  app.put('/user', async (c) => {
    const { user, sessionId } = await requireUser(c, deps);
    const body = await readJson(c);
    const data = obj(body.data);
    const password = typeof body.password === 'string' ? body.password : undefined;
    const email = str(body.email) ? validateEmail(str(body.email)) : undefined;
    const pkce = pkceParams(body.code_challenge, body.code_challenge_method);
    const nonce = typeof body.nonce === 'string' && body.nonce ? body.nonce : '';
    if (nonce) await consumeNonce(deps, user, nonce);

    let passwordHash: string | undefined;
    if (password !== undefined) {
      validatePassword(password, deps.config.passwordMinLength);
      if (deps.config.passwordChangeRequiresReauthentication && !nonce)
        await provePasswordChange(c, deps, user, sessionId, body);
      if (await checkPassword(password, user.encrypted_password))
        throw unprocessable(
          'same_password',
          'New password should be different from the old password.',
        );
      passwordHash = await hashPassword(password, deps.config.bcryptCost);
    }
    const changingEmail = email !== undefined && email !== user.email?.toLowerCase();
    if (changingEmail) {
      const taken = await findUserByEmail(deps.db, email);
      if (taken && taken.id !== user.id)
        throw unprocessable(
          'email_exists',
          'A user with this email address has already been registered',
        );
      await checkMailFrequency(deps, 'email_change', email);
    }

    const emailToken = await deps.db.transaction(async (tx) => {
      if (data) {
        await tx.query(
          `update auth.users set raw_user_meta_data = jsonb_strip_nulls(
             coalesce(raw_user_meta_data, '{}') || $2::jsonb), updated_at = now() where id = $1`,
          [user.id, JSON.stringify(data)],
        );
      }
      if (passwordHash) {
        await tx.query(
          'update auth.users set encrypted_password = $2, updated_at = now() where id = $1',
          [user.id, passwordHash],
        );
        // A new password signs every other session out (GoTrue's UpdatePassword).
        await tx.query('delete from auth.sessions where user_id = $1 and id <> $2', [
          user.id,
          sessionId,
        ]);
      }
      if (!changingEmail) return null;
      if (pkce) await createFlowState(tx, pkce, 'email', 'email_change', user.id);
      return createEmailToken(tx, deps, user, 'email_change', requestReferrer(c, deps.config), {
        newEmail: email,
        pkce: pkce !== null,
      });
    });
    if (emailToken && email) await sendEmailChangeMails(deps, user, email, emailToken);
    const fresh = await findUserById(deps.db, user.id);
    return c.json(await userJson(deps.db, fresh ?? user));
  });

  app.post('/logout', async (c) => {
    const { user, sessionId } = await requireUser(c, deps);
    const scope = c.req.query('scope') ?? 'global';
    if (scope === 'global')
      await deps.db.query('delete from auth.sessions where user_id = $1', [user.id]);
    else if (scope === 'local')
      await deps.db.query('delete from auth.sessions where id = $1', [sessionId]);
    else if (scope === 'others')
      await deps.db.query('delete from auth.sessions where user_id = $1 and id <> $2', [
        user.id,
        sessionId,
      ]);
    else throw validationFailed(`Unsupported logout scope "${scope}"`);
    return c.body(null, 204);
  });

  app.delete('/user/identities/:id', async (c) => {
    const { user } = await requireUser(c, deps);
    const identityId = c.req.param('id');
    const identities = await listIdentities(deps.db, user.id);
    const identity = identities.find((i) => i.identity_id === identityId);
    if (!identity) throw unprocessable('identity_not_found', "Identity doesn't exist");
    if (identities.length <= 1)
      throw unprocessable(
        'single_identity_not_deletable',
        'User must have at least 1 identity after unlinking',
      );
    await deps.db.transaction(async (tx) => {
      await tx.query('delete from auth.identities where id = $1', [identityId]);
      await tx.query(
        `update auth.users set raw_app_meta_data = jsonb_set(raw_app_meta_data, '{providers}',
           (select coalesce(jsonb_agg(distinct provider), '[]') from auth.identities
            where user_id = $1)),
           updated_at = now() where id = $1`,
        [user.id],
      );
    });
    return c.json({});
  });
}
