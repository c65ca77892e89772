/** Whether a session still owes its second factor (docs/account.md, "Two-factor sign-in"). */
import type { Session } from './types';

/** The `aal` claim of an access token (GoTrue's JWT), without checking it (the server does). */
function aalOf(accessToken: string): string | null {
  try {
    const part = accessToken.split('.')[1] ?? '';
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const aal = (JSON.parse(json) as { aal?: unknown }).aal;
    return typeof aal === 'string' ? aal : null;
  } catch {
    return null;
  }
}

/** A verified factor and a session below aal2: the sign-in asks for the code first. */
export function owesSecondFactor(session: Session): boolean {
  const verified = session.user.factors?.some((f) => f.status === 'verified') ?? false;
  return verified && aalOf(session.access_token) !== 'aal2';
}

/**
 * The one database call a session that owes its second factor makes with its own token: the
 * recovery code answers the factor. Everything else goes as anon (the database refuses that
 * token: docs/account.md, "Two-factor in the database"), so public pages still show the catalogue.
 */
export function sentWithOwedSession(url: string): boolean {
  return new URL(url, 'http://x').pathname.endsWith('/rest/v1/rpc/use_mfa_recovery_code');
}
