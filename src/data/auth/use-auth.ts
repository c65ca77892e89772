import { useEffect, useSyncExternalStore } from 'react';
import { authStore, startAuth, type AuthState } from './auth-store';

/** The current authentication state; starts the session check on first use. */
export function useAuth(): AuthState {
  useEffect(startAuth, []);
  return useSyncExternalStore(authStore.subscribe, authStore.getSnapshot, authStore.getSnapshot);
}
