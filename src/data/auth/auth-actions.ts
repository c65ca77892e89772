/**
 * The app-level auth actions of spec 7, on supabase-js. Each throws an Error whose message is the
 * backend's, or the spec's fallback when the backend gives none (spec 8).
 */
import { getSupabase } from '../remote/client';
import { removeDownloadsOf } from '../downloads/app-downloads';

function fail(error: { message?: string } | null | undefined, fallback: string): never {
  throw new Error(error?.message || fallback);
}

const appUrl = (path: string) => new URL(path, window.location.origin).toString();

export async function login(email: string, password: string): Promise<void> {
  const client = await getSupabase();
  const { data, error } = await client.auth.signInWithPassword({ email: email.trim(), password });
  if (error) fail(error, 'Failed to login');
  if (!data.user) throw new Error('Login failed');
}

/** Signup leaves the user signed out until the e-mail link is followed (spec 4). */
export async function signup(email: string, password: string, name: string): Promise<void> {
  const client = await getSupabase();
  const fullName = name.trim();
  const { data, error } = await client.auth.signUp({
    email: email.trim(),
    password,
    options: {
      data: { name: fullName, full_name: fullName },
      emailRedirectTo: appUrl('/verify-email/success'),
    },
  });
  if (error) fail(error, 'Failed to sign up');
  if (!data.user) throw new Error('User creation failed');
}

/** Redirects to Google (or the labelled development sign-in), returning to /home. */
export async function signInWithGoogle(): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.auth.signInWithOAuth({
    provider: 'google',
    options: { redirectTo: appUrl('/home'), queryParams: { prompt: 'select_account' } },
  });
  if (error) fail(error, 'Failed to sign in with Google');
}

export async function resetPassword(email: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.auth.resetPasswordForEmail(email.trim(), {
    redirectTo: appUrl('/reset-password'),
  });
  if (error) fail(error, 'Failed to send reset email');
}

/** Sets a new password for the user signed in by a recovery link, then signs them out. */
export async function setNewPassword(password: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.auth.updateUser({ password });
  if (error) fail(error, 'Profile update failed');
  await client.auth.signOut({ scope: 'local' });
}

/** Signs out; the signed-out listener's downloads leave the device (docs/offline.md). */
export async function logout(): Promise<void> {
  const client = await getSupabase();
  const userId = (await client.auth.getSession()).data.session?.user.id ?? null;
  const { error } = await client.auth.signOut();
  if (error) fail(error, 'Failed to logout');
  if (userId) await removeDownloadsOf(userId).catch(() => undefined);
}
