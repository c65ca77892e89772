/**
 * The admin API (service-role key only): /admin/users CRUD with GoTrue's pagination
 * (`X-Total-Count`, `Link`), /admin/generate_link and /invite.
 */
import type { Hono } from 'hono';
import { obj, readJson, requireAdmin, str, validateEmail, type AuthDeps } from './context';
import { requestReferrer } from './redirects';
import { createEmailToken, sendAuthMail, type LinkType } from './email-tokens';
import { badRequest, notFound, unprocessable, validationFailed } from './errors';
import { hashPassword, validatePassword } from './passwords';
import { findUserByEmail, findUserById, insertUser, userJson, type UserRow } from './users';

const emailExists = () =>
  unprocessable('email_exists', 'A user with this email address has already been registered');

async function userOr404(deps: AuthDeps, id: string): Promise<UserRow> {
  const user = await findUserById(deps.db, id);
  if (!user) throw notFound('user_not_found', 'User not found');
  return user;
}

/** "24h", "90m", "1h30m", "none" (GoTrue's ban_duration) → SQL interval text or null (unban). */
function banInterval(value: string): string | null {
  if (value === 'none') return null;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!value || !m) throw badRequest('validation_failed', 'invalid format for ban duration');
  return `${m[1] ?? 0} hours ${m[2] ?? 0} minutes ${m[3] ?? 0} seconds`;
}

async function applyUpdates(deps: AuthDeps, user: UserRow, body: Record<string, unknown>) {
  const email = str(body.email) ? validateEmail(str(body.email)) : undefined;
  if (email && email !== user.email) {
    const other = await findUserByEmail(deps.db, email);
    if (other && other.id !== user.id) throw emailExists();
  }
  let hash: string | undefined;
  if (typeof body.password === 'string') {
    validatePassword(body.password, deps.config.passwordMinLength);
    hash = await hashPassword(body.password, deps.config.bcryptCost);
  }
  const ban = typeof body.ban_duration === 'string' ? body.ban_duration : undefined;
  await deps.db.transaction(async (tx) => {
    const set = async (sql: string, params: unknown[]) =>
      tx.query(`update auth.users set ${sql}, updated_at = now() where id = $1`, [
        user.id,
        ...params,
      ]);
    if (email && email !== user.email) await set('email = $2', [email]);
    if (hash) await set('encrypted_password = $2', [hash]);
    if (body.email_confirm === true)
      await set('email_confirmed_at = coalesce(email_confirmed_at, now())', []);
    const userMeta = obj(body.user_metadata);
    if (userMeta)
      await set(
        `raw_user_meta_data = jsonb_strip_nulls(coalesce(raw_user_meta_data, '{}') || $2::jsonb)`,
        [JSON.stringify(userMeta)],
      );
    const appMeta = obj(body.app_metadata);
    if (appMeta)
      await set(
        `raw_app_meta_data = jsonb_strip_nulls(coalesce(raw_app_meta_data, '{}') || $2::jsonb)`,
        [JSON.stringify(appMeta)],
      );
    if (typeof body.role === 'string' && body.role) await set('role = $2', [body.role]);
    if (ban !== undefined) {
      const interval = banInterval(ban);
      await set(
        `banned_until = case when $2::interval is null then null else now() + $2::interval end`,
        [interval],
      );
      if (interval) await tx.query('delete from auth.sessions where user_id = $1', [user.id]);
    }
  });
}

export function registerAdminRoutes(app: Hono, deps: AuthDeps): void {
  app.use('/admin/*', async (c, next) => {
    await requireAdmin(c, deps);
    await next();
  });
  app.use('/invite', async (c, next) => {
    await requireAdmin(c, deps);
    await next();
  });

  app.get('/admin/users', async (c) => {
    const page = Math.max(1, Number.parseInt(c.req.query('page') || '1', 10) || 1);
    const perPage = Math.min(
      1000,
      Math.max(1, Number.parseInt(c.req.query('per_page') || '50', 10) || 50),
    );
    const { rows: count } = await deps.db.query<{ n: number }>(
      'select count(*)::int as n from auth.users where deleted_at is null',
    );
    const total = Number(count[0]?.n ?? 0);
    const { rows: ids } = await deps.db.query<{ id: string }>(
      `select id from auth.users where deleted_at is null order by created_at desc, id
       limit $1 offset $2`,
      [perPage, (page - 1) * perPage],
    );
    const users = [];
    for (const { id } of ids) {
      const user = await findUserById(deps.db, id);
      if (user) users.push(await userJson(deps.db, user));
    }
    const last = Math.max(1, Math.ceil(total / perPage));
    const link = (p: number, rel: string) =>
      `</admin/users?page=${p}&per_page=${perPage}>; rel="${rel}"`;
    const links = [...(page < last ? [link(page + 1, 'next')] : []), link(last, 'last')];
    c.header('X-Total-Count', String(total));
    c.header('Link', links.join(', '));
    return c.json({ aud: 'authenticated', users });
  });

  app.post('/admin/users', async (c) => {
    const body = await readJson(c);
    if (str(body.phone) && !str(body.email))
      throw badRequest('phone_provider_disabled', 'Phone is not enabled on this server');
    const email = validateEmail(str(body.email));
    if (await findUserByEmail(deps.db, email)) throw emailExists();
    const password = typeof body.password === 'string' ? body.password : undefined;
    if (password !== undefined) validatePassword(password, deps.config.passwordMinLength);
    const passwordHash = password ? await hashPassword(password, deps.config.bcryptCost) : null;
    const id = await deps.db.transaction((tx) =>
      insertUser(tx, {
        email,
        passwordHash,
        userMetadata: obj(body.user_metadata) ?? {},
        appMetadata: obj(body.app_metadata) ?? {},
        provider: 'email',
        confirmed: body.email_confirm === true,
        ...(typeof body.role === 'string' && body.role ? { role: body.role } : {}),
      }),
    );
    let user = await userOr404(deps, id);
    if (typeof body.ban_duration === 'string') {
      await applyUpdates(deps, user, { ban_duration: body.ban_duration });
      user = await userOr404(deps, id);
    }
    return c.json(await userJson(deps.db, user));
  });

  app.get('/admin/users/:id', async (c) => {
    const user = await userOr404(deps, c.req.param('id'));
    return c.json(await userJson(deps.db, user));
  });

  app.put('/admin/users/:id', async (c) => {
    const user = await userOr404(deps, c.req.param('id'));
    await applyUpdates(deps, user, await readJson(c));
    return c.json(await userJson(deps.db, await userOr404(deps, user.id)));
  });

  app.delete('/admin/users/:id', async (c) => {
    const user = await userOr404(deps, c.req.param('id'));
    const body = await readJson(c);
    if (body.should_soft_delete === true) {
      await deps.db.transaction(async (tx) => {
        await tx.query(
          `update auth.users set deleted_at = now(), email = null, encrypted_password = '',
             raw_user_meta_data = '{}', updated_at = now() where id = $1`,
          [user.id],
        );
        await tx.query('delete from auth.identities where user_id = $1', [user.id]);
        await tx.query('delete from auth.sessions where user_id = $1', [user.id]);
      });
    } else await deps.db.query('delete from auth.users where id = $1', [user.id]);
    return c.json({});
  });

  app.post('/admin/generate_link', async (c) => {
    const body = await readJson(c);
    const type = str(body.type);
    const email = validateEmail(str(body.email));
    const kinds: Record<string, LinkType> = {
      signup: 'signup',
      invite: 'invite',
      magiclink: 'magiclink',
      recovery: 'recovery',
      email_change_current: 'email_change',
      email_change_new: 'email_change',
    };
    const linkType = kinds[type];
    if (!linkType) throw validationFailed('Invalid email action link type requested');
    let user = await findUserByEmail(deps.db, email);
    if (type === 'signup' || type === 'invite') {
      if (user?.email_confirmed_at) throw emailExists();
      if (!user) {
        const password = str(body.password);
        if (type === 'signup') validatePassword(password, deps.config.passwordMinLength);
        const hash = password ? await hashPassword(password, deps.config.bcryptCost) : null;
        const data = obj(body.data) ?? {};
        const id = await deps.db.transaction((tx) =>
          insertUser(tx, {
            email,
            passwordHash: hash,
            userMetadata: data,
            provider: 'email',
            confirmed: false,
            invited: type === 'invite',
          }),
        );
        user = await userOr404(deps, id);
      }
    }
    if (!user) throw notFound('user_not_found', 'User with this email not found');
    let newEmail: string | undefined;
    if (linkType === 'email_change') {
      newEmail = validateEmail(str(body.new_email));
      if (await findUserByEmail(deps.db, newEmail)) throw emailExists();
    }
    const target = user;
    const token = await deps.db.transaction((tx) =>
      createEmailToken(
        tx,
        deps,
        target,
        linkType,
        // generate_link prefers its body's redirect_to when allowed (GoTrue's adminGenerateLink).
        requestReferrer(c, deps.config, str(body.redirect_to)),
        newEmail ? { newEmail } : {},
      ),
    );
    const fresh = await userOr404(deps, user.id);
    return c.json({
      ...(await userJson(deps.db, fresh)),
      action_link: token.link,
      email_otp: token.otp,
      hashed_token: token.hashedToken,
      redirect_to: token.redirectTo,
      verification_type: linkType,
    });
  });

  app.post('/invite', async (c) => {
    const body = await readJson(c);
    const email = validateEmail(str(body.email));
    let user = await findUserByEmail(deps.db, email);
    if (user?.email_confirmed_at) throw emailExists();
    if (!user) {
      const id = await deps.db.transaction((tx) =>
        insertUser(tx, {
          email,
          passwordHash: null,
          userMetadata: obj(body.data) ?? {},
          provider: 'email',
          confirmed: false,
          invited: true,
        }),
      );
      user = await userOr404(deps, id);
    }
    const target = user;
    const token = await deps.db.transaction((tx) =>
      createEmailToken(tx, deps, target, 'invite', requestReferrer(c, deps.config)),
    );
    await sendAuthMail(deps, email, 'invite', token);
    return c.json(await userJson(deps.db, await userOr404(deps, user.id)));
  });
}
