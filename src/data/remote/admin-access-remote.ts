/**
 * Whether the caller's admin powers are usable (docs/account.md, "Admins and two-factor
 * sign-in"): `admin_access()` in Postgres, which is_admin() itself uses. The admin pages only
 * explain; every admin read and action is refused by the database anyway.
 */
import { getSupabase } from './client';

/** null: not an admin; otherwise 'ok' or what the admin must do first. */
export type AdminAccess = 'ok' | 'set_up_two_factor' | 'confirm_two_factor' | null;

export async function fetchAdminAccess(): Promise<AdminAccess> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('admin_access');
  if (error) throw new Error(error.message || 'Failed to check administrator access');
  return data as AdminAccess;
}
