/**
 * Autoplay (docs/player.md § Autoplay): when the queue ends and the setting is on, the player
 * asks the app's source for similar tracks and plays them. The player knows no data layer: the
 * app registers the source when it starts the player (the recommendations function, online; the
 * device's downloaded tracks, offline) and may answer nothing, and the player then stays stopped.
 */
import type { PlayerTrack } from './types';

/** Similar tracks to play after `ended` (the queue's tracks are left out by the player). */
export type AutoplaySource = (
  ended: PlayerTrack,
  queue: readonly PlayerTrack[],
) => Promise<readonly PlayerTrack[]>;

let source: AutoplaySource | null = null;

export function setAutoplaySource(next: AutoplaySource | null): void {
  source = next;
}

export function autoplaySource(): AutoplaySource | null {
  return source;
}
