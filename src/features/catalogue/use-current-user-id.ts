import { useSessionUserId } from '@/data/auth';

/** The signed-in user's id (profiles.id), or null. */
export function useCurrentUserId(): string | null {
  return useSessionUserId();
}
