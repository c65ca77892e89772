/**
 * Loading from the press, for every control whose click starts a track (docs/player.md,
 * "Loading from the press"): the press (`pointerdown` of the primary button, or the Enter/Space
 * `keydown` that will click it) starts the track's element loading, and the click then plays that
 * element. A person's press comes 50-150 ms before the click; the load overlaps it.
 */
import { primeTrack } from './start-player';
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
  const press = () => {
    const current = playerState.currentTrack;
    const track = typeof target === 'function' ? target(current) : target;
    if (track && track.id !== current?.id) primeTrack(track);
  };
  return {
    onPointerDown: (event) => {
      if (event.button === 0) press();
    },
    onKeyDown: (event) => {
      if (CLICK_KEYS.has(event.key)) press();
    },
  };
}
