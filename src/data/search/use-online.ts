/** navigator.onLine as a React value (the browser's own idea of being online). */
import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const snapshot = () => (typeof navigator === 'undefined' ? true : navigator.onLine);

export const useOnline = (): boolean => useSyncExternalStore(subscribe, snapshot, () => true);
