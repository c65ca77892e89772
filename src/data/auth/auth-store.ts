/**
 * Authentication state (spec 4): loading, authenticated, or not. Checked on app start from the
 * stored session; follows supabase-js's auth events afterwards. A tiny external store, read with
 * useAuth().
 */
import { getSupabase } from '../remote/client';
import type { AuthChangeEvent, Session } from '../remote/types';
import { owesSecondFactor } from '../remote/second-factor';

export { owesSecondFactor };

/** `mfa`: signed in with the password (aal1), but the account's second factor is still owed. */
export type AuthStatus = 'loading' | 'authenticated' | 'mfa' | 'unauthenticated';

export interface AuthState {
  status: AuthStatus;
  session: Session | null;
  /** The last auth event, e.g. PASSWORD_RECOVERY after a reset link. */
  lastEvent: AuthChangeEvent | null;
  /** Set when the auth check itself failed ('Failed to check auth'). */
  error: string | null;
}

let state: AuthState = { status: 'loading', session: null, lastEvent: null, error: null };
const listeners = new Set<() => void>();
let started = false;

function set(next: Partial<AuthState>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

function fromSession(session: Session | null): Partial<AuthState> {
  if (!session) return { session, status: 'unauthenticated' };
  return { session, status: owesSecondFactor(session) ? 'mfa' : 'authenticated' };
}

/**
 * A session ended elsewhere ("Sign out everywhere else", a password change, another device's
 * "Sign out this device") keeps a valid access token here until it expires. Asking GoTrue's /user
 * every 30 s (and when the tab shows again) finds out: supabase-js drops a session whose
 * `session_id` is gone (session_not_found) and fires SIGNED_OUT. docs/account.md, "Sessions".
 */
const SESSION_CHECK_MS = 30_000;
function watchSessionEnd(client: Awaited<ReturnType<typeof getSupabase>>): void {
  const check = () => {
    if (state.session) void client.auth.getUser().catch(() => undefined);
  };
  setInterval(check, SESSION_CHECK_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
}

/** Starts the check once: reads the stored (or URL) session, then listens for changes. */
export function startAuth(): void {
  if (started) return;
  started = true;
  void getSupabase()
    .then(async (client) => {
      client.auth.onAuthStateChange((event, session) => {
        set({ ...fromSession(session), lastEvent: event });
      });
      const { data, error } = await client.auth.getSession();
      if (error) throw error;
      set(fromSession(data.session));
      watchSessionEnd(client);
    })
    .catch((error: unknown) => {
      set({
        status: 'unauthenticated',
        session: null,
        error: error instanceof Error && error.message ? error.message : 'Failed to check auth',
      });
    });
}

export const authStore = {
  getSnapshot: (): AuthState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
