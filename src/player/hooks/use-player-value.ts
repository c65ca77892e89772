import { useRef, useSyncExternalStore } from 'react';
import { snapshot, subscribe, type Snapshot } from 'valtio';
import { playerState, type PlayerState } from '../store';
import { whenViewsMayDraw } from '../ui-hold';

const shallowEqual = <T>(a: T, b: T): boolean => {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
};

/**
 * Tells React of the store's changes, except while a sound the listener asked for is starting
 * (ui-hold.ts): then once it plays. After the store's other listeners (the engine's holds first).
 */
function subscribeHeld(onChange: () => void): () => void {
  let active = true;
  let queued = false;
  const unsubscribe = subscribe(playerState, () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() =>
      whenViewsMayDraw(() => {
        queued = false;
        if (active) onChange();
      }),
    );
  });
  return () => {
    active = false;
    unsubscribe();
  };
}

/**
 * A value read from the player's store; the component re-renders when it changes (objects are
 * compared key by key, so a selector may return a fresh `{ a, b }`). Like valtio's useSnapshot,
 * but the re-render of a click that starts a track waits for its sound (docs/player.md, "Click
 * to audio"): React's render of the bar and the rows, with the style, layout and paint after it,
 * held the main thread 25-35 ms in the click's own task before the element could even ask for
 * its file.
 */
export function usePlayerValue<T>(select: (state: Snapshot<PlayerState>) => T): T {
  const cache = useRef<{ state: Snapshot<PlayerState>; value: T } | null>(null);
  const read = (): T => {
    const state = snapshot(playerState);
    const last = cache.current;
    if (last?.state === state) return last.value;
    const value = select(state);
    const kept = last && shallowEqual(last.value, value) ? last.value : value;
    cache.current = { state, value: kept };
    return kept;
  };
  return useSyncExternalStore(subscribeHeld, read, read);
}
