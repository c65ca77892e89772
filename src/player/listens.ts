/**
 * The listen-recording hook point (spec section 4, 'Listen recording'; DECISIONS.md 'what counts
 * as a play'). The engine emits once per track per session after 30 s of actual playback (or the
 * whole track when shorter), never for the uploader. The data layer subscribes and records the
 * play (increment_track_plays plus a listening_history row, through its outbox).
 */
export interface ListenQualified {
  trackId: string;
  uploadedBy: string;
  /** The signed-in listener when the listen qualified, or null when signed out. */
  listenerId: string | null;
  /** Seconds actually played when it qualified. */
  playedSeconds: number;
  /** When it qualified (ISO 8601), for the listening_history row. */
  listenedAt: string;
}

type Listener = (listen: ListenQualified) => void;
const listeners = new Set<Listener>();

/** Calls `callback` for every qualified listen; returns the unsubscribe function. */
export function onListenQualified(callback: Listener): () => void {
  listeners.add(callback);
  return () => listeners.delete(callback);
}

export function emitListenQualified(listen: ListenQualified): void {
  for (const listener of listeners) {
    try {
      listener(listen);
    } catch (error) {
      console.error('A listen-qualified listener failed', error);
    }
  }
}
