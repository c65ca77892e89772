/**
 * The only writers of the player store. Queue rules come from queue.ts; the audio engine follows
 * the store (and the seek commands emitted here).
 */
import { autoplaySource } from './autoplay';
import { emitPlayerCommand } from './commands';
import * as rules from './queue';
import { DEFAULT_VOLUME, initialPlayerState, playerState, type PlayerState } from './store';
import type { PlayerTrack, RandomSource } from './types';

let random: RandomSource = Math.random;

/** Replaces the shuffle's randomness (tests); returns a function restoring the previous one. */
export function setRandomSource(source: RandomSource): () => void {
  const previousSource = random;
  random = source;
  return () => {
    random = previousSource;
  };
}

function queueState(): rules.QueueState {
  const s = playerState;
  return {
    currentTrack: s.currentTrack,
    queue: s.queue,
    isPlaying: s.isPlaying,
    currentTime: s.currentTime,
    duration: s.duration,
    repeat: s.repeat,
    shuffle: s.shuffle,
    stems: s.stems,
  };
}

/** Applies a queue rule; a restart of the same track also tells the engine to seek to 0. */
function apply(rule: (state: rules.QueueState) => rules.QueueState): void {
  const before = queueState();
  const after = rule(before);
  if (after === before) return;
  const trackChanged = after.currentTrack?.id !== before.currentTrack?.id;
  const s = playerState;
  s.currentTrack = after.currentTrack;
  if (after.queue !== before.queue) s.queue = [...after.queue];
  s.isPlaying = after.isPlaying;
  s.currentTime = after.currentTime;
  s.duration = after.duration;
  s.repeat = after.repeat;
  s.shuffle = after.shuffle;
  s.stems = after.stems ? [...after.stems] : null;
  const restarted =
    !trackChanged &&
    after.currentTrack !== null &&
    after.currentTime === 0 &&
    before.currentTime !== 0;
  if (restarted) emitPlayerCommand({ type: 'seek', time: 0 });
}

export const play = () => apply(rules.play);
export const pause = () => apply(rules.pause);
export const togglePlay = () => apply(rules.togglePlay);
export const next = () => apply((s) => rules.next(s, random));
export const previous = () => apply((s) => rules.previous(s, random));
/** A track ended; at the end of the queue, autoplay (when on) continues with similar tracks. */
export const trackEnded = () => {
  apply((s) => rules.trackEnded(s, random));
  const s = playerState;
  if (s.autoplay && !s.isPlaying && s.currentTrack && s.repeat === 'off') {
    void continueAutoplay(s.currentTrack);
  }
};
export const cycleRepeat = () => apply(rules.cycleRepeat);
export const toggleShuffle = () => apply(rules.toggleShuffle);

/** A choice of the listener's: a previous audio error is no longer news. */
function userApply(rule: (state: rules.QueueState) => rules.QueueState): void {
  playerState.error = null;
  apply(rule);
}

export const setTrack = (track: PlayerTrack) => userApply((s) => rules.setTrack(s, track));
export const clickTrack = (list: readonly PlayerTrack[], track: PlayerTrack) =>
  userApply((s) => rules.clickTrack(s, list, track));
export const playFromTrackPage = (track: PlayerTrack, catalogue: readonly PlayerTrack[]) =>
  userApply((s) => rules.playFromTrackPage(s, track, catalogue));
export const playPlaylist = (tracks: readonly PlayerTrack[]) =>
  userApply((s) => rules.playPlaylist(s, tracks));
export const playNext = (track: PlayerTrack) => userApply((s) => rules.playNext(s, track));
export const addToQueue = (track: PlayerTrack) => userApply((s) => rules.addToQueue(s, track));
export const stop = () => apply(rules.stop);

/** Replaces the queue without changing the current track (e.g. a reordered queue). */
export function setQueue(queue: readonly PlayerTrack[]): void {
  playerState.queue = [...queue];
}

function clampTime(seconds: number): number {
  const max = playerState.duration > 0 ? playerState.duration : Number.POSITIVE_INFINITY;
  return Number.isFinite(seconds) ? Math.min(Math.max(0, seconds), max) : 0;
}

/** Seeks the current track (seconds, clamped to the track). */
export function seek(seconds: number): void {
  if (!playerState.currentTrack) return;
  const time = clampTime(seconds);
  playerState.currentTime = time;
  emitPlayerCommand({ type: 'seek', time });
}

/** Seeks relative to the current position (keyboard shortcuts, media keys). */
export function seekBy(deltaSeconds: number): void {
  seek(playerState.currentTime + deltaSeconds);
}

/** 0..1 in steps of 0.01 (the slider's step): 0.7 - 0.05 is 0.65, not 0.6499999999999999. */
export function clampVolume(volume: number): number {
  if (!Number.isFinite(volume)) return DEFAULT_VOLUME;
  return Math.round(Math.min(1, Math.max(0, volume)) * 100) / 100;
}

/** Sets the volume (clamped to 0..1). Moving the slider unmutes; moving it to 0 mutes. */
export function setVolume(volume: number): void {
  const v = clampVolume(volume);
  playerState.volume = v;
  playerState.muted = v === 0;
  playerState.volumeBeforeMute = null;
}

export function changeVolumeBy(delta: number): void {
  setVolume((playerState.muted ? 0 : playerState.volume) + delta);
}

/** Mute keeps the prior volume; unmute restores it, or 0.7 when there was none (or it was 0). */
export function toggleMute(): void {
  const s = playerState;
  if (s.muted) {
    const restored = s.volumeBeforeMute ?? s.volume;
    s.volume = restored > 0 ? restored : DEFAULT_VOLUME;
    s.muted = false;
    s.volumeBeforeMute = null;
  } else {
    s.volumeBeforeMute = s.volume > 0 ? s.volume : DEFAULT_VOLUME;
    s.volume = 0;
    s.muted = true;
  }
}

/**
 * The queue ended on `ended`: similar tracks from the registered source are added to the queue
 * and the first plays, unless the listener did something meanwhile (another track, play, the
 * setting turned off). A failing source (offline, the function down) leaves the player stopped,
 * quietly: nothing was asked of the listener.
 */
async function continueAutoplay(ended: PlayerTrack): Promise<void> {
  const source = autoplaySource();
  if (!source) return;
  let found: readonly PlayerTrack[];
  try {
    found = await source(ended, playerState.queue);
  } catch {
    return;
  }
  const s = playerState;
  if (!s.autoplay || s.isPlaying || s.currentTrack?.id !== ended.id) return;
  apply((state) => rules.continueWith(state, found));
}

/** Autoplay on or off (the player's setting, saved with it). */
export function setAutoplay(on: boolean): void {
  playerState.autoplay = on;
}

/** Loudness normalisation on or off (the player's setting, saved with it). */
export function setNormalise(on: boolean): void {
  playerState.normalise = on;
}

/** Engine feedback: the playback position (does not seek). */
export function syncTime(seconds: number): void {
  if (Number.isFinite(seconds) && seconds >= 0) playerState.currentTime = seconds;
}

/** Engine feedback: the audio's length once known. */
export function syncDuration(seconds: number): void {
  if (Number.isFinite(seconds) && seconds > 0) playerState.duration = seconds;
}

/** Engine feedback: playback really stopped (e.g. a stream that cannot continue). */
export function syncPaused(): void {
  playerState.isPlaying = false;
}

export function reportError(message: string): void {
  playerState.error = message;
}

export function clearError(): void {
  playerState.error = null;
}

/** Stems of the current track (from the stems feature); null clears them. */
export function setStems(urls: readonly string[] | null): void {
  playerState.stems = urls ? [...urls] : null;
}

/** Restores persisted state: always paused, at the saved position. */
export function restore(saved: Partial<PlayerState>): void {
  const s = playerState;
  if (saved.currentTrack !== undefined) s.currentTrack = saved.currentTrack;
  if (saved.queue) s.queue = [...saved.queue];
  if (saved.volume !== undefined) {
    s.volume = clampVolume(saved.volume);
    s.muted = s.volume === 0;
  }
  if (saved.repeat) s.repeat = saved.repeat;
  if (saved.shuffle !== undefined) s.shuffle = saved.shuffle;
  if (saved.normalise !== undefined) s.normalise = saved.normalise;
  if (saved.autoplay !== undefined) s.autoplay = saved.autoplay;
  s.currentTime = s.currentTrack ? clampTime(saved.currentTime ?? 0) : 0;
  s.duration = 0;
  s.isPlaying = false;
  s.stems = null;
  s.error = null;
}

/** Back to the initial state (tests, sign-out). */
export function resetPlayer(): void {
  Object.assign(playerState, initialPlayerState());
}
