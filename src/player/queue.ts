/**
 * The player's rules (product spec section 4, 'Player') as pure functions over an immutable state.
 * No Valtio, no Howler: actions.ts applies these to the store, and queue.test.ts pins every rule.
 * A function that has nothing to do returns the state it was given (same reference).
 */
import type { PlayerTrack, RandomSource, RepeatMode } from './types';

export interface QueueState {
  readonly currentTrack: PlayerTrack | null;
  readonly queue: readonly PlayerTrack[];
  readonly isPlaying: boolean;
  /** Seconds into the current track. */
  readonly currentTime: number;
  /** Seconds; 0 until the audio reports its length. */
  readonly duration: number;
  readonly repeat: RepeatMode;
  readonly shuffle: boolean;
  /** Stem URLs of the current track, or null. */
  readonly stems: readonly string[] | null;
}

export const INITIAL_QUEUE_STATE: QueueState = {
  currentTrack: null,
  queue: [],
  isPlaying: false,
  currentTime: 0,
  duration: 0,
  repeat: 'off',
  shuffle: false,
  stems: null,
};

/** Related tracks on the track page: at most this many (spec section 9). */
export const RELATED_TRACKS_LIMIT = 5;

const NEXT_REPEAT: Record<RepeatMode, RepeatMode> = { off: 'all', all: 'one', one: 'off' };

export function cycleRepeat(state: QueueState): QueueState {
  return { ...state, repeat: NEXT_REPEAT[state.repeat] };
}

export function toggleShuffle(state: QueueState): QueueState {
  return { ...state, shuffle: !state.shuffle };
}

/** Setting a track resets time and duration, starts playing and clears stems. */
export function setTrack(state: QueueState, track: PlayerTrack): QueueState {
  return {
    ...state,
    currentTrack: track,
    currentTime: 0,
    duration: 0,
    isPlaying: true,
    stems: null,
  };
}

/** Play and pause only work when a track exists. */
export function play(state: QueueState): QueueState {
  if (!state.currentTrack || state.isPlaying) return state;
  return { ...state, isPlaying: true };
}

export function pause(state: QueueState): QueueState {
  if (!state.isPlaying) return state;
  return { ...state, isPlaying: false };
}

export function togglePlay(state: QueueState): QueueState {
  return state.isPlaying ? pause(state) : play(state);
}

/**
 * The end of the queue without repeat all: nothing plays, but the last track stays current,
 * paused at its start (its length and stems kept), so the bar keeps it and Play starts it again
 * from 0, as Spotify and SoundCloud do. The spec's "current track cleared" is read as "nothing
 * plays" (docs/player.md, "End of the queue").
 */
export function endOfQueue(state: QueueState): QueueState {
  return { ...state, isPlaying: false, currentTime: 0 };
}

/**
 * Autoplay's continuation: `tracks` not already in the queue are added after it and the first of
 * them plays; nothing new leaves the state as it is.
 */
export function continueWith(state: QueueState, tracks: readonly PlayerTrack[]): QueueState {
  const inQueue = new Set(state.queue.map((t) => t.id));
  const added: PlayerTrack[] = [];
  for (const track of tracks) {
    if (inQueue.has(track.id)) continue;
    inQueue.add(track.id);
    added.push(track);
  }
  const first = added[0];
  if (!first) return state;
  return setTrack({ ...state, queue: [...state.queue, ...added] }, first);
}

/** Stops and clears the current track (the player emptied, e.g. a test's reset). */
export function stop(state: QueueState): QueueState {
  return {
    ...state,
    currentTrack: null,
    isPlaying: false,
    currentTime: 0,
    duration: 0,
    stems: null,
  };
}

/** Index of the current track in the queue, -1 when absent. */
export function currentIndex(state: QueueState): number {
  const current = state.currentTrack;
  return current ? state.queue.findIndex((t) => t.id === current.id) : -1;
}

/** A uniformly random queue item other than the current track, or null when there is none. */
export function randomOther(state: QueueState, random: RandomSource): PlayerTrack | null {
  const currentId = state.currentTrack?.id;
  const others = state.queue.filter((t) => t.id !== currentId);
  if (others.length === 0) return null;
  const pick = Math.min(others.length - 1, Math.floor(random() * others.length));
  return others[pick] ?? null;
}

/**
 * The track `next` would play without shuffle, or null when it would stop. Used by the engine to
 * preload; with shuffle on the next track is random, so nothing is predicted.
 */
export function upcomingTrack(state: QueueState): PlayerTrack | null {
  if (!state.currentTrack || state.queue.length === 0 || state.shuffle) return null;
  const following = state.queue[currentIndex(state) + 1];
  if (following) return following;
  return state.repeat === 'all' ? (state.queue[0] ?? null) : null;
}

/**
 * Next: the following queue item, or a random other one with shuffle. At the end of the queue it
 * wraps to the first item with repeat all, otherwise stops on the last one (endOfQueue). Repeat
 * one does not hold the track here: pressing next always moves on. Without a current track or
 * with an empty queue there is nothing to advance to and nothing changes. Shuffle with no other
 * item falls back to the ordered rule.
 */
export function next(state: QueueState, random: RandomSource): QueueState {
  if (!state.currentTrack || state.queue.length === 0) return state;
  if (state.shuffle) {
    const pick = randomOther(state, random);
    if (pick) return setTrack(state, pick);
  }
  const following = state.queue[currentIndex(state) + 1];
  if (following) return setTrack(state, following);
  const first = state.queue[0];
  if (state.repeat === 'all' && first) return setTrack(state, first);
  return endOfQueue(state);
}

/**
 * Previous: the prior queue item, or a random other one with shuffle; nothing at the start of the
 * queue (nor when the current track is not in it).
 */
export function previous(state: QueueState, random: RandomSource): QueueState {
  if (!state.currentTrack || state.queue.length === 0) return state;
  if (state.shuffle) {
    const pick = randomOther(state, random);
    if (pick) return setTrack(state, pick);
  }
  const index = currentIndex(state);
  const prior = index > 0 ? state.queue[index - 1] : undefined;
  return prior ? setTrack(state, prior) : state;
}

/** A track ending with repeat one restarts (same track, time 0, playing), else advances. */
export function trackEnded(state: QueueState, random: RandomSource): QueueState {
  if (!state.currentTrack) return state;
  if (state.repeat === 'one') return setTrack(state, state.currentTrack);
  return next(state, random);
}

/** Clicking the current track toggles play/pause; another sets the queue to the list and plays. */
export function clickTrack(
  state: QueueState,
  list: readonly PlayerTrack[],
  track: PlayerTrack,
): QueueState {
  if (state.currentTrack?.id === track.id) return togglePlay(state);
  return setTrack({ ...state, queue: list.length > 0 ? [...list] : [track] }, track);
}

/**
 * Tracks related to `track` in `catalogue`: same artist or same album (singles share no album),
 * itself and duplicates excluded, in catalogue order, at most `limit`.
 */
export function relatedTracks(
  track: PlayerTrack,
  catalogue: readonly PlayerTrack[],
  limit = RELATED_TRACKS_LIMIT,
): PlayerTrack[] {
  const seen = new Set([track.id]);
  const related: PlayerTrack[] = [];
  for (const candidate of catalogue) {
    if (related.length >= limit) break;
    if (seen.has(candidate.id)) continue;
    const sameArtist = candidate.artist === track.artist;
    const sameAlbum = Boolean(track.album) && candidate.album === track.album;
    if (sameArtist || sameAlbum) {
      seen.add(candidate.id);
      related.push(candidate);
    }
  }
  return related;
}

/**
 * Track page play: the track with a queue of it plus up to 5 related tracks; when it is already
 * the current track, toggles pause.
 */
export function playFromTrackPage(
  state: QueueState,
  track: PlayerTrack,
  catalogue: readonly PlayerTrack[],
): QueueState {
  if (state.currentTrack?.id === track.id) return togglePlay(state);
  return setTrack({ ...state, queue: [track, ...relatedTracks(track, catalogue)] }, track);
}

/** Whether the current track is one of the playlist's tracks. */
export function isPlayingFrom(
  state: Pick<QueueState, 'currentTrack'>,
  tracks: readonly PlayerTrack[],
): boolean {
  const current = state.currentTrack;
  return current !== null && tracks.some((t) => t.id === current.id);
}

/**
 * The track a playlist's play starts: its first (shuffle or not: it picks no random track), or
 * null when it starts none (a track of it is current, so it pauses or resumes; it is empty).
 * What its button's press loads (pressToPrime).
 */
export function playlistStart(
  state: Pick<QueueState, 'currentTrack'>,
  tracks: readonly PlayerTrack[],
): PlayerTrack | null {
  return isPlayingFrom(state, tracks) ? null : (tracks[0] ?? null);
}

/**
 * Playlist play: starts at the first track with the playlist as the queue. When the current
 * track belongs to the playlist the button pauses (and, when paused, resumes where it was).
 */
export function playPlaylist(state: QueueState, tracks: readonly PlayerTrack[]): QueueState {
  if (isPlayingFrom(state, tracks)) return togglePlay(state);
  const first = playlistStart(state, tracks);
  if (!first) return state;
  return setTrack({ ...state, queue: [...tracks] }, first);
}

/** 'Play next': the track goes right after the current one (moved there if already queued). */
export function playNext(state: QueueState, track: PlayerTrack): QueueState {
  if (!state.currentTrack) return setTrack({ ...state, queue: [track] }, track);
  if (track.id === state.currentTrack.id) return state;
  const rest = state.queue.filter((t) => t.id !== track.id);
  const at = rest.findIndex((t) => t.id === state.currentTrack?.id);
  const queue = [...rest.slice(0, at + 1), track, ...rest.slice(at + 1)];
  return { ...state, queue };
}

/** 'Add to queue': the track goes to the end (a track already queued stays where it is). */
export function addToQueue(state: QueueState, track: PlayerTrack): QueueState {
  if (state.queue.some((t) => t.id === track.id)) return state;
  if (!state.currentTrack) return setTrack({ ...state, queue: [track] }, track);
  return { ...state, queue: [...state.queue, track] };
}
