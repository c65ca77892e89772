/**
 * The e-mail flows: POST /signup (confirmation required), /recover, /resend and /otp (magic link
 * and e-mail code). None of them tells whether an address has an account.
 */
import type { Context, Hono } from 'hono';
import { obj, readJson, str, validateEmail, type AuthDeps } from './context';
import {
  checkMailFrequency,
  createEmailToken,
  sendAuthMail,
  sendEmailChangeMails,
  type LinkType,
} from './email-tokens';
import { badRequest, unprocessable, validationFailed } from './errors';
import { hashPassword, validatePassword } from './passwords';
import { createFlowState, pkceParams } from './pkce';
import { requestReferrer } from './redirects';
import type { AuthMethod } from './sessions';
import { findUserByEmail, findUserById, insertUser, userJson, type UserRow } from './users';

/** Mails a link of `type` to `user` (with a PKCE flow state when the request started one). */
async function mailLink(
  c: Context,
  deps: AuthDeps,
  body: Record<string, unknown>,
  user: UserRow,
  type: LinkType,
  method: AuthMethod,
): Promise<void> {
  const pkce = pkceParams(body.code_challenge, body.code_challenge_method);
  const redirect = requestReferrer(c, deps.config);
  const token = await deps.db.transaction(async (tx) => {
    if (pkce) await createFlowState(tx, pkce, 'email', method, user.id);
    return createEmailToken(tx, deps, user, type, redirect, { pkce: pkce !== null });
  });
  await sendAuthMail(deps, user.email ?? '', type, token);
}

/** GoTrue's answer to a sign-up for an address that already has a confirmed account. */
function obfuscatedUser(email: string, data: Record<string, unknown>) {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

async function findUserByPendingEmail(deps: AuthDeps, email: string): Promise<UserRow | null> {
  const { rows } = await deps.db.query<{ id: string }>(
    'select id from auth.users where lower(email_change) = $1 limit 1',
    [email],
  );
  return rows[0] ? findUserById(deps.db, rows[0].id) : null;
}

export function registerEmailRoutes(app: Hono, deps: AuthDeps): void {
  app.post('/signup', async (c) => {
    const body = await readJson(c);
    if (str(body.phone) && !str(body.email))
      throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
    if (!str(body.email)) throw validationFailed('To signup, please provide your email');
    const email = validateEmail(str(body.email));
    const password = str(body.password);
    if (!password) throw validationFailed('Signup requires a valid password');
    validatePassword(password, deps.config.passwordMinLength);
    const data = obj(body.data) ?? {};
    pkceParams(body.code_challenge, body.code_challenge_method);

    const existing = await findUserByEmail(deps.db, email);
    if (existing?.email_confirmed_at) {
      await hashPassword(password, deps.config.bcryptCost); // same work as a real sign-up
      return c.json(obfuscatedUser(email, data));
    }
    let user = existing;
    if (user) {
      await deps.db.query(
        `update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}') || $2,
           updated_at = now() where id = $1`,
        [user.id, JSON.stringify(data)],
      );
    } else {
      const passwordHash = await hashPassword(password, deps.config.bcryptCost);
      const id = await deps.db.transaction((tx) =>
        insertUser(tx, {
          email,
          passwordHash,
          userMetadata: data,
          provider: 'email',
          confirmed: false,
        }),
      );
      user = await findUserById(deps.db, id);
    }
    if (!user) throw new Error('user not created');
    await checkMailFrequency(deps, 'signup', email);
    await mailLink(c, deps, body, user, 'signup', 'email/signup');
    const fresh = await findUserById(deps.db, user.id);
    return c.json(await userJson(deps.db, fresh ?? user));
  });

  app.post('/recover', async (c) => {
    const body = await readJson(c);
    if (!str(body.email))
      throw unprocessable('validation_failed', 'Password recovery requires an email');
    const email = validateEmail(str(body.email));
    pkceParams(body.code_challenge, body.code_challenge_method);
    const user = await findUserByEmail(deps.db, email);
    if (user && (await checkMailFrequency(deps, 'recovery', email, true)))
      await mailLink(c, deps, body, user, 'recovery', 'recovery');
    return c.json({});
  });

  app.post('/resend', async (c) => {
    const body = await readJson(c);
    const type = str(body.type);
    if (type === 'sms' || type === 'phone_change')
      throw badRequest('phone_provider_disabled', 'Phone is not enabled on this server');
    if (type !== 'signup' && type !== 'email_change')
      throw validationFailed('Missing one of these types: signup, email_change, sms, phone_change');
    const email = validateEmail(str(body.email));
    const user =
      type === 'signup'
        ? await findUserByEmail(deps.db, email)
        : await findUserByPendingEmail(deps, email);
    // Nothing to resend (no such account, already confirmed): the same empty answer.
    if (!user || (type === 'signup' && user.email_confirmed_at)) return c.json({});
    await checkMailFrequency(deps, type, email);
    if (type === 'signup') await mailLink(c, deps, body, user, 'signup', 'email/signup');
    else {
      const redirect = requestReferrer(c, deps.config);
      const token = await deps.db.transaction((tx) =>
        createEmailToken(tx, deps, user, 'email_change', redirect, { newEmail: email }),
      );
      await sendEmailChangeMails(deps, user, email, token);
    }
    return c.json({});
  });

  app.post('/otp', async (c) => {
    const body = await readJson(c);
    if (str(body.phone) && !str(body.email))
      throw badRequest('phone_provider_disabled', 'Phone is not enabled on this server');
    const email = validateEmail(str(body.email));
    pkceParams(body.code_challenge, body.code_challenge_method);
    const createUser = body.create_user !== false;
    let user = await findUserByEmail(deps.db, email);
    if (!user) {
      if (!createUser) throw unprocessable('otp_disabled', 'Signups not allowed for otp');
      const id = await deps.db.transaction((tx) =>
        insertUser(tx, {
          email,
          passwordHash: null,
          userMetadata: obj(body.data) ?? {},
          provider: 'email',
          confirmed: false,
        }),
      );
      user = await findUserById(deps.db, id);
      if (!user) throw new Error('user not created');
    }
    if (user.email_confirmed_at) {
      await checkMailFrequency(deps, 'magiclink', email);
      await mailLink(c, deps, body, user, 'magiclink', 'magiclink');
    } else {
      // An unconfirmed address gets the confirmation mail; confirming signs in too.
      await checkMailFrequency(deps, 'signup', email);
      await mailLink(c, deps, body, user, 'signup', 'email/signup');
    }
    return c.json({});
  });
}
