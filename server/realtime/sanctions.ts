/**
 * Banned accounts in realtime (docs/trust-and-safety.md, docs/realtime.md § Banned accounts).
 * admin_sanction_user() sends `pg_notify('soundloft_account_banned', <user id>)` when it bans;
 * every node LISTENs (PGlite: in-process; PostgreSQL: a LISTEN connection of each node, so every
 * node hears every ban) and closes that user's sockets on that node. A join is refused while the
 * account is banned: its access token may stay valid until it expires, so the ban is asked of
 * Postgres (`account_restriction()`) at each join and at each token refresh on a channel.
 */
import type { Database } from '../db/database';
import { checkUsersOnNotify } from './user-notify';

export const BANNED_CHANNEL = 'soundloft_account_banned';
/** The close code and reason a banned user's sockets get (4000–4999: the application's). */
export const BANNED_CLOSE = { code: 4003, reason: 'account banned' } as const;

/**
 * Banned, or no longer an account at all (deleted: docs/privacy-rights.md; its access token may
 * still be valid until it expires).
 */
export async function isBannedAccount(db: Database, userId: string): Promise<boolean> {
  const { rows } = await db.query<{ banned: boolean }>(
    `select coalesce(public.account_restriction($1::uuid) = 'ban', false)
         or not exists (select 1 from auth.users u where u.id = $1::uuid and u.deleted_at is null)
         as banned`,
    [userId],
  );
  return rows[0]?.banned === true;
}

export interface SocketsOfUsers {
  /** The users with a socket on this node. */
  connectedUsers(): string[];
  /** Closes every socket of one user on this node. */
  closeUser(userId: string): void;
}

/**
 * Closes the sockets of every user banned from now on; resolves to a stop function. The payload
 * is checked against the database before anything is closed (a NOTIFY alone decides nothing),
 * and after a lost LISTEN connection every connected user is checked (a ban may have been missed).
 */
export function closeBannedSockets(
  db: Database,
  sockets: SocketsOfUsers,
): Promise<() => Promise<void>> {
  return checkUsersOnNotify(
    db,
    BANNED_CHANNEL,
    'realtime bans',
    () => sockets.connectedUsers(),
    async (user) => {
      if (await isBannedAccount(db, user)) sockets.closeUser(user);
    },
  );
}
