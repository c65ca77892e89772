/**
 * One tab syncs: the one holding the Web Lock 'soundloft-sync' (the others queue for it and take
 * over when that tab closes). Writes in any tab nudge the leader through a BroadcastChannel.
 * Without Web Locks (jsdom, old browsers) every engine leads; the server dedupes replays.
 */
export const LOCK_NAME = 'soundloft-sync';
const CHANNEL = 'soundloft-sync';

interface LockManagerLike {
  request(name: string, callback: () => Promise<void>): Promise<void>;
}

/** Calls onLeader once this tab holds the lock; the returned function gives it up. */
export function acquireLeadership(onLeader: () => void): () => void {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  if (!locks) {
    onLeader();
    return () => {};
  }
  let release: (() => void) | null = null;
  let released = false;
  locks
    .request(
      LOCK_NAME,
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
          if (released) resolve();
          else onLeader();
        }),
    )
    .catch((error: unknown) => {
      console.warn('sync: Web Locks unavailable, syncing in this tab', error);
      if (!released) onLeader();
    });
  return () => {
    released = true;
    release?.();
  };
}

const localListeners = new Set<() => void>();

/** Tells the syncing tab (this one or another) that the outbox has new entries. */
export function notifyWrite(): void {
  for (const listener of localListeners) listener();
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage('nudge');
  channel.close();
}

/** Listens for writes from this tab and others. */
export function onWrite(listener: () => void): () => void {
  localListeners.add(listener);
  let channel: BroadcastChannel | null = null;
  if (typeof BroadcastChannel !== 'undefined') {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = () => listener();
  }
  return () => {
    localListeners.delete(listener);
    channel?.close();
  };
}
