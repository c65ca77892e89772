/** ADMIN_EMAILS → public.admin_emails (and so public.admins), called by the server at start. */
import type { Queryable } from './database';

export const DEFAULT_ADMIN_EMAILS = 'admin@soundloft.local';

/** Parses a comma (or whitespace) separated list into lower-case, trimmed, unique addresses. */
export function parseAdminEmails(value: string | undefined): string[] {
  const list = (value ?? DEFAULT_ADMIN_EMAILS).split(/[,\s]+/).map((e) => e.trim().toLowerCase());
  return [...new Set(list.filter((e) => e.includes('@')))];
}

/**
 * Makes `emails` the configured admin addresses: every user with one of them as a confirmed
 * e-mail address is an admin, every other user is not. Runs as the server's own connection.
 */
export async function syncAdmins(db: Queryable, emails: readonly string[]): Promise<void> {
  await db.query('select public.sync_admin_emails($1::text[])', [emails]);
}
