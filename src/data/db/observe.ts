/** Dexie's liveQuery for code outside db/ that is not a React component (the sync engine). */
import { liveQuery } from 'dexie';

export function observe<T>(query: () => Promise<T>, onValue: (value: T) => void): () => void {
  const subscription = liveQuery(query).subscribe({
    next: onValue,
    error: (error: unknown) => console.warn('observe failed', error),
  });
  return () => subscription.unsubscribe();
}
