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

/**
 * ADMIN_REQUIRE_MFA (docs/account.md, "Admins and two-factor sign-in"): `on`/`true`/`1`/`yes` or
 * `off`/`false`/`0`/`no`; unset: on in production, off otherwise. Null for any other value
 * (production-check names it).
 */
export function parseAdminRequireMfa(
  value: string | undefined,
  production: boolean,
): boolean | null {
  const v = value?.trim().toLowerCase();
  if (v === undefined || v === '') return production;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  return null;
}

/**
 * Writes the setting to public.security_settings, where is_admin() reads it: every node and the
 * database decide the same (a node's memory would not reach PostgreSQL's policies).
 */
export async function syncAdminRequireMfa(db: Queryable, required: boolean): Promise<void> {
  await db.query(
    `update public.security_settings set admin_require_mfa = $1, updated_at = now()
      where admin_require_mfa is distinct from $1`,
    [required],
  );
}
