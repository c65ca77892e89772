/**
 * Loading from the press, for every control whose click starts a track (docs/player.md,
 * "Loading from the press"): the press (`pointerdown` of the primary button, or the Enter/Space
 * `keydown` that will click it) starts the track's element loading, and the click then plays that
 * element. A person's press comes 50-150 ms before the click; the load overlaps it.
 */
import { primeTrack, releasePrimedTrack } from './start-player';
import { playerState } from './store';
import type { PlayerTrack } from './types';

/**
 * The track the control's click will start: a track, or a function called at the press (given
 * the player's current track) for a control that works it out then. Null or undefined: the
 * click starts no new track, nothing loads.
 */
export type PressTarget =
  | PlayerTrack
  | null
  | undefined
  | ((current: PlayerTrack | null) => PlayerTrack | null | undefined);

/** The props a play control spreads: `<Button {...pressToPrime(track)} onClick={...}>`. */
export interface PressToPrimeProps {
  onPointerDown: (event: { button: number }) => void;
  onKeyDown: (event: { key: string }) => void;
}

/** The keys that click a focused button: Enter at its keydown, Space at its keyup. */
const CLICK_KEYS: ReadonlySet<string> = new Set(['Enter', ' ']);

/**
 * `onPointerDown` (primary button only: a right or middle press opens no play) and `onKeyDown`
 * (Enter, Space) that load `target` from the press. The current track is never loaded again: its
 * click pauses or resumes it (clickTrack, playFromTrackPage), so a press on it does nothing.
 */
export function pressToPrime(target: PressTarget): PressToPrimeProps {
  const press = (ends: readonly string[]) => {
    const current = playerState.currentTrack;
    const track = typeof target === 'function' ? target(current) : target;
    if (!track || track.id === current?.id) return;
    primeTrack(track);
    untilPressEnds(ends, releasePrimedTrack);
  };
  return {
    onPointerDown: (event) => {
      if (event.button === 0) press(POINTER_ENDS);
    },
    onKeyDown: (event) => {
      if (CLICK_KEYS.has(event.key)) press(KEY_ENDS);
    },
  };
}

/** The events that end a press: the click (if any) follows them. */
const POINTER_ENDS = ['pointerup', 'pointercancel'] as const;
const KEY_ENDS = ['keyup', 'blur'] as const;

/**
 * Calls `ended` once, at the first of `events` on the window (wherever the pointer or focus went):
 * the primed track's drop timer counts from the release, not the press (PlayerEngine.PRIME_MS).
 */
function untilPressEnds(events: readonly string[], ended: () => void): void {
  if (typeof window === 'undefined') return;
  const end = () => {
    for (const type of events) window.removeEventListener(type, end, true);
    ended();
  };
  for (const type of events) window.addEventListener(type, end, true);
}
