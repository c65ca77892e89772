/**
 * The welcome line's first words. Spec 2 greets a user with their name; "Welcome back" says they
 * have been here before, which a brand-new account has not: an account younger than a day is
 * greeted "Welcome", an older one "Welcome back". Deciding by the account's age (auth's
 * `created_at`) rather than by a visit stored in the browser keeps it the same on every device
 * and after a reload; a day old is "back" whatever the device.
 */
export const NEW_ACCOUNT_MS = 24 * 60 * 60 * 1000;

export type Welcome = 'Welcome' | 'Welcome back';

export function welcomeFor(accountCreatedAt: string | null | undefined, now = Date.now()): Welcome {
  const created = accountCreatedAt ? Date.parse(accountCreatedAt) : NaN;
  // Unknown age: plain "Welcome" is true for everyone.
  if (!Number.isFinite(created)) return 'Welcome';
  return now - created < NEW_ACCOUNT_MS ? 'Welcome' : 'Welcome back';
}
