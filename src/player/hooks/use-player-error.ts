import { usePlayerValue } from './use-player-value';

/** The last audio error as a human message, or null. */
export function usePlayerError(): string | null {
  return usePlayerValue((s) => s.error);
}
