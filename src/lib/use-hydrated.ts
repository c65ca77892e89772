import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False in the build's prerender and in the render that hydrates it, true from the next render
 * on (and at once when the page renders on the client only). The server snapshot is what React
 * uses while hydrating, so the first client render matches the prerendered HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
