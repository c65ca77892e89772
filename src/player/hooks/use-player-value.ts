import { startTransition, useEffect, useLayoutEffect, useRef, useState } from 'react';
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
 * Tells of the store's changes, except while a sound the listener asked for is starting
 * (ui-hold.ts): then once it plays, with `released` true. After the store's other listeners
 * (the engine's holds first).
 */
function subscribeHeld(onChange: (released: boolean) => void): () => void {
  let active = true;
  let queued = false;
  const unsubscribe = subscribe(playerState, () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() =>
      whenViewsMayDraw((released) => {
        queued = false;
        if (active) onChange(released);
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
 * but the re-render of a click that starts a track waits for its sound (docs/player.md, "Audio
 * first"): React's render of the bar and the rows, with the style, layout and paint after it,
 * held the main thread 25-35 ms in the click's own task before the element could even ask for
 * its file. The re-render after such a hold is a transition: React renders it in slices of
 * about 5 ms and the page's other tasks run between them (the new sound's loading, decoding and
 * clock run on the same main thread; one synchronous render there took 20-45 ms right after the
 * first samples). Every other change renders as before, at once.
 *
 * Not useSyncExternalStore: its updates are always synchronous, even inside startTransition.
 * The value is read from the store's latest snapshot on every render, so a render for any other
 * reason shows the store as it is; during a sliced render two components may read snapshots a
 * moment apart (the playback position), the next tick lines them up.
 */
export function usePlayerValue<T>(select: (state: Snapshot<PlayerState>) => T): T {
  // The value as of the last change told (kept while equal key by key), and as the store is now
  // (a render for another reason, or a selector over new props).
  const [stored, setStored] = useState(() => select(snapshot(playerState)));
  const fresh = select(snapshot(playerState));
  const value = shallowEqual(fresh, stored) ? stored : fresh;
  // What was drawn and how it was chosen, for the store's listener.
  const drawn = useRef({ value, select });
  useLayoutEffect(() => {
    drawn.current = { value, select };
  });
  useEffect(() => {
    const changed = (released: boolean) => {
      const { value: shown, select: choose } = drawn.current;
      const next = choose(snapshot(playerState));
      if (shallowEqual(next, shown)) return;
      if (released) startTransition(() => setStored(() => next));
      else setStored(() => next);
    };
    // The store may have changed between this render and its effect.
    changed(false);
    return subscribeHeld(changed);
  }, []);
  return value;
}
