/**
 * E-mailed links and codes, as GoTrue makes them: a six-digit code, its hash
 * `hex(sha224(email + code))` stored on auth.users (confirmation_token, recovery_token,
 * email_change_token_new; `pkce_` prefixed when the flow is PKCE), and a link
 * `${issuer}/verify?token=<hash>&type=<type>&redirect_to=<url>`.
 */
import { createHash, randomInt } from 'node:crypto';
import type { Queryable } from '../db/database';
import { renderAuthMail, type AuthMailKind } from '../mail';
import type { AuthDeps } from './context';
import { tooManyRequests } from './errors';
import type { UserRow } from './users';

/** The `type` of a verification link (and of POST /verify, which also takes `email`). */
export type LinkType = 'signup' | 'invite' | 'recovery' | 'magiclink' | 'email_change';

const COLUMN: Record<LinkType, { token: string; sentAt: string }> = {
  signup: { token: 'confirmation_token', sentAt: 'confirmation_sent_at' },
  invite: { token: 'confirmation_token', sentAt: 'confirmation_sent_at' },
  recovery: { token: 'recovery_token', sentAt: 'recovery_sent_at' },
  magiclink: { token: 'recovery_token', sentAt: 'recovery_sent_at' },
  email_change: { token: 'email_change_token_new', sentAt: 'email_change_sent_at' },
};

export const tokenColumn = (type: LinkType) =>
  COLUMN[type].token as 'confirmation_token' | 'recovery_token' | 'email_change_token_new';
export const sentAtColumn = (type: LinkType) => COLUMN[type].sentAt;

const MAIL_KIND: Record<LinkType, AuthMailKind> = {
  signup: 'confirmation',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magic_link',
  email_change: 'email_change',
};

export const hashToken = (email: string, otp: string) =>
  createHash('sha224')
    .update(email + otp)
    .digest('hex');

export interface EmailToken {
  otp: string;
  hashedToken: string;
  link: string;
  redirectTo: string;
  /** A secure e-mail change's second code, for the current address. */
  current?: { otp: string; hashedToken: string; link: string };
}

const newOtp = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

function verifyLink(deps: AuthDeps, token: string, type: LinkType, redirectTo: string): string {
  const link = new URL(`${deps.config.issuer}/verify`);
  link.searchParams.set('token', token);
  link.searchParams.set('type', type);
  link.searchParams.set('redirect_to', redirectTo);
  return link.toString();
}

/**
 * Creates (and stores) a fresh code for `user`. For an e-mail change the code belongs to the new
 * address, which is recorded in `email_change` until it is confirmed.
 */
export async function createEmailToken(
  tx: Queryable,
  deps: AuthDeps,
  user: UserRow,
  type: LinkType,
  redirectTo: string,
  opts: { pkce?: boolean; newEmail?: string } = {},
): Promise<EmailToken> {
  const otp = newOtp();
  const prefix = opts.pkce ? 'pkce_' : '';
  const address = type === 'email_change' ? (opts.newEmail ?? '') : (user.email ?? '');
  const hashedToken = `${prefix}${hashToken(address, otp)}`;
  const link = verifyLink(deps, hashedToken, type, redirectTo);
  if (type !== 'email_change') {
    const column = tokenColumn(type);
    const sentAt = sentAtColumn(type);
    await tx.query(
      `update auth.users set ${column} = $2, ${sentAt} = now(), updated_at = now() where id = $1`,
      [user.id, hashedToken],
    );
    return { otp, hashedToken, link, redirectTo };
  }
  // GoTrue's secure e-mail change: a second code for the current address; the change happens
  // when both are confirmed (email_change_confirm_status 0 → 1 → done).
  let current: EmailToken['current'];
  if (deps.config.secureEmailChange && user.email) {
    const currentOtp = newOtp();
    const currentHash = `${prefix}${hashToken(user.email.toLowerCase(), currentOtp)}`;
    current = {
      otp: currentOtp,
      hashedToken: currentHash,
      link: verifyLink(deps, currentHash, type, redirectTo),
    };
  }
  await tx.query(
    `update auth.users set email_change_token_new = $2, email_change = $3,
       email_change_token_current = $4, email_change_confirm_status = 0,
       email_change_sent_at = now(), updated_at = now() where id = $1`,
    [user.id, hashedToken, address, current?.hashedToken ?? ''],
  );
  return { otp, hashedToken, link, redirectTo, ...(current ? { current } : {}) };
}

/**
 * GoTrue allows one mail of a kind per address per `mailMinInterval` seconds (429
 * over_email_send_rate_limit). `silent` (password recovery) skips instead of failing, so the
 * answer never depends on whether the account exists.
 */
export async function checkMailFrequency(
  deps: AuthDeps,
  type: LinkType | 'reauthentication',
  email: string,
  silent = false,
): Promise<boolean> {
  const key = `mail:${type}:${email.toLowerCase()}`;
  const wait = await deps.limiters.mail.take({ [key]: 1 });
  if (wait > 0) {
    if (silent) return false;
    throw tooManyRequests(
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${wait} seconds.`,
      wait,
    );
  }
  return true;
}

/**
 * The mails of an e-mail change: the link for the new address, and with a secure change the one
 * for the current address (which also tells its owner what is asked).
 */
export async function sendEmailChangeMails(
  deps: AuthDeps,
  user: UserRow,
  newEmail: string,
  token: EmailToken,
): Promise<void> {
  await sendAuthMail(deps, newEmail, 'email_change', token, newEmail);
  if (token.current && user.email)
    await deps.mailer.send(
      renderAuthMail('email_change_current', {
        to: user.email,
        link: token.current.link,
        otp: token.current.otp,
        newEmail,
      }),
    );
}

/** Sends the mail of `type` with the link and code of `token`. */
export async function sendAuthMail(
  deps: AuthDeps,
  to: string,
  type: LinkType,
  token: EmailToken,
  newEmail?: string,
): Promise<void> {
  await deps.mailer.send(
    renderAuthMail(MAIL_KIND[type], {
      to,
      link: token.link,
      otp: token.otp,
      ...(newEmail ? { newEmail } : {}),
    }),
  );
}
