/**
 * Ended sessions in realtime (docs/account.md, "Sessions"): when an auth session ends (a sign-out
 * of any scope, "Sign out this device", a password change), bootstrap.sql's trigger sends
 * `pg_notify('soundloft_session_ended', <user id>)`. Every node LISTENs, asks the database which of
 * the sessions its sockets of that user joined with still exist, and closes the sockets of the
 * ones that do not. A NOTIFY alone decides nothing; after a lost LISTEN every user is checked.
 */
import type { Database } from '../db/database';
import { isBannedAccount } from './sanctions';
import { checkUsersOnNotify, isUuid } from './user-notify';

export const SESSION_ENDED_CHANNEL = 'soundloft_session_ended';
/** The close code and reason a socket of an ended session gets (4000–4999: the application's). */
export const SESSION_ENDED_CLOSE = { code: 4001, reason: 'session ended' } as const;

export interface SocketsOfSessions {
  connectedUsers(): string[];
  sessionsOfUser(userId: string): string[];
  closeSessions(userId: string, sessionIds: readonly string[]): void;
}

/** The sessions of `ids` that no longer exist (or have ended). */
export async function endedSessions(db: Database, ids: string[]): Promise<string[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `select id::text from auth.sessions
     where id = any($1::uuid[]) and (not_after is null or not_after > now())`,
    [valid],
  );
  const alive = new Set(rows.map((r) => r.id));
  return valid.filter((id) => !alive.has(id));
}

/** Closes the sockets of every session ended from now on; resolves to a stop function. */
export function closeEndedSessions(
  db: Database,
  sockets: SocketsOfSessions,
): Promise<() => Promise<void>> {
  return checkUsersOnNotify(
    db,
    SESSION_ENDED_CHANNEL,
    'realtime sessions',
    () => sockets.connectedUsers(),
    async (user) => {
      // A ban ends every session too; its own listener closes them with 4003 "account banned"
      // (sanctions.ts), which tells the client why: this one leaves them to it.
      if (await isBannedAccount(db, user)) return;
      const ended = await endedSessions(db, sockets.sessionsOfUser(user));
      if (ended.length) sockets.closeSessions(user, ended);
    },
  );
}
