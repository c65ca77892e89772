import { useEffect, useSyncExternalStore } from 'react';
import { authStore, startAuth, type AuthState } from './auth-store';
import type { User } from '../remote/types';

/** The current authentication state; starts the session check on first use. */
export function useAuth(): AuthState {
  return useAuthSelector(whole);
}

const whole = (state: AuthState) => state;

/**
 * One part of the auth state: the component re-renders only when that part changes (a token
 * refresh replaces the session object, not the status or the user id). `select` must return a
 * primitive or an object it does not create (module-level selectors, like the ones below).
 */
export function useAuthSelector<T>(select: (state: AuthState) => T): T {
  useEffect(startAuth, []);
  const snapshot = () => select(authStore.getSnapshot());
  return useSyncExternalStore(authStore.subscribe, snapshot, snapshot);
}

const statusOf = (state: AuthState) => state.status;
const userIdOf = (state: AuthState) => state.session?.user.id ?? null;
const userOf = (state: AuthState): User | null => state.session?.user ?? null;

export const useAuthStatus = () => useAuthSelector(statusOf);
/** The signed-in user's id (profiles.id), or null. */
export const useSessionUserId = () => useAuthSelector(userIdOf);
/** The signed-in user as GoTrue knows them (e-mail, metadata, role), or null. */
export const useSessionUser = () => useAuthSelector(userOf);
