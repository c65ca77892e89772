/**
 * The LISTEN-check-close loop the realtime node runs for bans (sanctions.ts) and ended sessions
 * (sessions.ts): a NOTIFY on `channel` names a user; the payload is only a hint (a NOTIFY alone
 * decides nothing), so `check` asks the database about that user and closes what it must; after
 * a lost LISTEN connection every connected user is checked (notifications may have been missed).
 * Resolves to a stop function.
 */
import type { Database } from '../db/database';

export const isUuid = (s: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

export function checkUsersOnNotify(
  db: Database,
  channel: string,
  /** Prefix of error lines. */
  label: string,
  connectedUsers: () => string[],
  check: (userId: string) => Promise<void>,
): Promise<() => Promise<void>> {
  const checkAll = async (users: string[]) => {
    for (const user of users) await check(user);
  };
  const report = (error: unknown) => console.error(`${label}:`, error);
  return db.listen(
    channel,
    (userId) => {
      if (isUuid(userId)) checkAll([userId]).catch(report);
    },
    () => {
      checkAll(connectedUsers()).catch(report);
    },
  );
}
