/**
 * The player's one Valtio proxy. Only actions.ts (and the restore in persistence.ts, through it)
 * writes to it; components read it through the hooks in ./hooks.
 */
import { proxy } from 'valtio';
import { INITIAL_QUEUE_STATE, type QueueState } from './queue';

/** Default volume (spec section 9), also what unmuting restores when no prior volume is known. */
export const DEFAULT_VOLUME = 0.7;

/**
 * Seconds an arrow key moves the position (the seek bar, the keyboard shortcuts). Here, not in
 * the seek bar, so that the shortcuts do not pull the seek bar into the first paint.
 */
export const SEEK_STEP_SECONDS = 5;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export interface PlayerState extends Mutable<QueueState> {
  /** 0..1. */
  volume: number;
  muted: boolean;
  /** The volume before muting, restored by unmuting; null when not muted. */
  volumeBeforeMute: number | null;
  /** A human message when the last track failed to load or play, else null. */
  error: string | null;
  /** Loudness normalisation toward -14 LUFS (loudness.ts); a setting, on by default. */
  normalise: boolean;
  /** When the queue ends, keep playing similar tracks (autoplay.ts); a setting, on by default. */
  autoplay: boolean;
}

export function initialPlayerState(): PlayerState {
  return {
    ...INITIAL_QUEUE_STATE,
    queue: [],
    volume: DEFAULT_VOLUME,
    muted: false,
    volumeBeforeMute: null,
    error: null,
    normalise: true,
    autoplay: true,
  };
}

export const playerState = proxy<PlayerState>(initialPlayerState());
