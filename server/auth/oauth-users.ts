/**
 * Who a Google (or development IdP) sign-in is, as GoTrue decides it: the user of an existing
 * identity; else, for a verified address that already has an account, that account (automatic
 * linking); else a new, confirmed user. With `linkUserId` (manual linking) the identity is
 * attached to the signed-in user instead.
 */
import type { Queryable } from '../db/database';
import { unprocessable } from './errors';
import type { IdentityClaims } from './providers';
import { addProvider, findUserByEmail, findUserById, insertUser, isBanned } from './users';

const PROVIDER = 'google';

function identityData(id: IdentityClaims): Record<string, unknown> {
  return {
    iss: id.iss,
    sub: id.sub,
    email: id.email,
    email_verified: id.emailVerified,
    phone_verified: false,
    provider_id: id.sub,
    ...(id.name ? { name: id.name, full_name: id.name } : {}),
    ...(id.picture ? { picture: id.picture, avatar_url: id.picture } : {}),
  };
}

async function addIdentity(tx: Queryable, userId: string, id: IdentityClaims): Promise<void> {
  await tx.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at)
     values ($1, $2, $3, $4, now())`,
    [id.sub, userId, JSON.stringify(identityData(id)), PROVIDER],
  );
  await addProvider(tx, userId, PROVIDER);
}

export async function resolveOAuthUser(
  tx: Queryable,
  id: IdentityClaims,
  linkUserId: string | null,
  opts: { autoLink: boolean },
): Promise<string> {
  const { rows } = await tx.query<{ user_id: string }>(
    'select user_id from auth.identities where provider = $1 and provider_id = $2',
    [PROVIDER, id.sub],
  );
  const existing = rows[0]?.user_id;

  if (linkUserId) {
    if (existing && existing !== linkUserId)
      throw unprocessable('identity_already_exists', 'Identity is already linked to another user');
    if (!existing) await addIdentity(tx, linkUserId, id);
    return linkUserId;
  }

  let userId = existing;
  if (userId) {
    await tx.query(
      `update auth.identities set identity_data = $3, updated_at = now()
       where provider = $1 and provider_id = $2`,
      [PROVIDER, id.sub, JSON.stringify(identityData(id))],
    );
  } else {
    const byEmail = id.emailVerified ? await findUserByEmail(tx, id.email) : null;
    if (byEmail && !opts.autoLink)
      throw unprocessable(
        'email_exists',
        'An account with this email already exists: sign in with it, then link Google',
      );
    if (byEmail) {
      userId = byEmail.id;
      await addIdentity(tx, userId, id);
      // The provider vouches for the address: an unconfirmed e-mail sign-up becomes confirmed.
      await tx.query(
        `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()),
           confirmation_token = '', updated_at = now() where id = $1`,
        [userId],
      );
    } else {
      if (!id.emailVerified)
        throw unprocessable('email_not_confirmed', 'Unverified email with google');
      userId = await insertUser(tx, {
        email: id.email,
        passwordHash: null,
        userMetadata: identityData(id),
        provider: PROVIDER,
        confirmed: true,
      });
      await addIdentity(tx, userId, id);
    }
  }
  const user = await findUserById(tx, userId);
  if (!user || isBanned(user)) throw unprocessable('user_banned', 'User is banned');
  return userId;
}
