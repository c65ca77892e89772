/**
 * The signed-in account's own settings (docs/account.md), through supabase-js calls that work the
 * same on hosted Supabase: e-mail change (GoTrue's secure change: a link to both addresses),
 * password change (the current password or a reauthentication code), sessions' sign-out.
 */
import { getSupabase } from '../remote/client';

function fail(error: { message?: string } | null | undefined, fallback: string): never {
  throw new Error(error?.message || fallback);
}

const appUrl = (path: string) => new URL(path, window.location.origin).toString();

/** Asks for a change of address: both the current and the new address get a link. */
export async function changeEmail(email: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.auth.updateUser(
    { email: email.trim() },
    { emailRedirectTo: appUrl('/settings') },
  );
  if (error) fail(error, 'Failed to change email');
}

/** Mails a six-digit code that proves a fresh sign-in (GoTrue's /reauthenticate nonce). */
export async function requestReauthentication(): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.auth.reauthenticate();
  if (error) fail(error, 'Failed to send the code');
}

export interface PasswordChange {
  password: string;
  /** The current password, or… */
  currentPassword?: string;
  /** …the code mailed by requestReauthentication(). */
  nonce?: string;
}

/**
 * Changes the password. GoTrue then ends every other session of the account (its
 * UpdatePassword); this one stays signed in.
 */
export async function changePassword(change: PasswordChange): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.auth.updateUser({
    password: change.password,
    ...(change.currentPassword ? { current_password: change.currentPassword } : {}),
    ...(change.nonce ? { nonce: change.nonce.trim() } : {}),
  });
  if (error) fail(error, 'Failed to change password');
}

/** Ends every session of this account but this one (`signOut({ scope: 'others' })`). */
export async function signOutOtherSessions(): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.auth.signOut({ scope: 'others' });
  if (error) fail(error, 'Failed to sign out other devices');
}
