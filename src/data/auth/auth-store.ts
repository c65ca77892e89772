/**
 * Authentication state (spec 4): loading, authenticated, or not. Checked on app start from the
 * stored session; follows supabase-js's auth events afterwards. A tiny external store, read with
 * useAuth().
 */
import { getSupabase } from '../remote/client';
import type { AuthChangeEvent, Session } from '../remote/types';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

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
  return { session, status: session ? 'authenticated' : 'unauthenticated' };
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
