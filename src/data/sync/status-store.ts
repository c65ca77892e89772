/**
 * Sync status for the UI indicator: synced / syncing n / offline / n failed, with retry().
 * A tiny external store (useSyncExternalStore), one per engine.
 */
export type SyncPhase = 'idle' | 'syncing' | 'offline' | 'signed-out';

export interface SyncStatus {
  phase: SyncPhase;
  /** Writes queued locally, not yet confirmed by the server. */
  pending: number;
  /** Writes the server rejected (dead letters), until dismissed. */
  failed: number;
  /** The latest user-facing rejection message ('Failed to like track'). */
  lastFailure: string | null;
  /** The last pull or push error, for logs and tooltips. */
  lastError: string | null;
  lastPulledAt: number | null;
}

export type SyncLabel = 'synced' | 'syncing' | 'offline' | 'failed';

/** What the indicator shows. */
export function syncLabel(s: SyncStatus): SyncLabel {
  if (s.phase === 'offline') return 'offline';
  if (s.pending > 0 || s.phase === 'syncing') return 'syncing';
  if (s.failed > 0) return 'failed';
  return 'synced';
}

export const INITIAL_STATUS: SyncStatus = {
  phase: 'idle',
  pending: 0,
  failed: 0,
  lastFailure: null,
  lastError: null,
  lastPulledAt: null,
};

export interface StatusStore {
  getSnapshot(): SyncStatus;
  subscribe(listener: () => void): () => void;
  set(next: Partial<SyncStatus>): void;
}

export function createStatusStore(initial: SyncStatus = INITIAL_STATUS): StatusStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      const merged = { ...state, ...next };
      if (Object.entries(next).every(([k, v]) => state[k as keyof SyncStatus] === v)) return;
      state = merged;
      for (const listener of listeners) listener();
    },
  };
}
