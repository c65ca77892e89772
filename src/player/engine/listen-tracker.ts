/**
 * What counts as a play (DECISIONS.md): once per listener, track and session, after 30 s of
 * listening or the whole track if it is shorter, never for the uploader. Counts playing time from
 * the audio position, not wall time: a seek moves the position without counting, a pause adds
 * nothing. Pure (no audio), driven by the engine.
 */
import type { ListenQualified } from '../listens';
import type { PlayerTrack } from '../types';

export const LISTEN_THRESHOLD_SECONDS = 30;
/** A position jump larger than this between two ticks is not listening (a seek we missed). */
export const MAX_STEP_SECONDS = 5;
/** Tolerance for float sums against a short track's length. */
const EPSILON = 0.05;

export interface ListenTrackerOptions {
  currentUserId: () => string | null;
  onQualified: (listen: ListenQualified) => void;
  thresholdSeconds?: number;
  maxStepSeconds?: number;
  now?: () => Date;
}

export class ListenTracker {
  /** Tracks already counted in this session (the page's lifetime). */
  private readonly counted = new Set<string>();
  private track: PlayerTrack | null = null;
  private duration = 0;
  private played = 0;
  private lastPosition = 0;
  private readonly options: ListenTrackerOptions;

  constructor(options: ListenTrackerOptions) {
    this.options = options;
  }

  /** A track became current, at `position` (a restored track starts where it was). */
  begin(track: PlayerTrack, position = 0): void {
    this.track = track;
    this.duration = track.duration > 0 ? track.duration : 0;
    this.played = 0;
    this.lastPosition = position;
  }

  /** The audio reported its own length. */
  setDuration(seconds: number): void {
    if (Number.isFinite(seconds) && seconds > 0) this.duration = seconds;
  }

  /** A tick while playing: the position advanced by real playback. */
  progress(position: number): void {
    const step = position - this.lastPosition;
    this.lastPosition = position;
    if (step > 0 && step <= (this.options.maxStepSeconds ?? MAX_STEP_SECONDS)) {
      this.played += step;
      this.check();
    }
  }

  /** The listener (or a restart) moved the position: nothing between is counted. */
  seeked(position: number): void {
    this.lastPosition = position;
  }

  /** The track played to its end: the last stretch since the final tick counts too. */
  ended(): void {
    if (this.duration > 0) this.progress(this.duration);
  }

  /** Seconds of real playback of the current track so far. */
  get playedSeconds(): number {
    return this.played;
  }

  hasCounted(trackId: string): boolean {
    return this.counted.has(trackId);
  }

  private threshold(): number {
    const base = this.options.thresholdSeconds ?? LISTEN_THRESHOLD_SECONDS;
    return this.duration > 0 ? Math.min(base, this.duration) : base;
  }

  private check(): void {
    const track = this.track;
    if (!track || this.counted.has(track.id)) return;
    if (this.played + EPSILON < this.threshold()) return;
    const listenerId = this.options.currentUserId();
    if (listenerId !== null && listenerId === track.uploadedBy) return;
    this.counted.add(track.id);
    this.options.onQualified({
      trackId: track.id,
      uploadedBy: track.uploadedBy,
      listenerId,
      playedSeconds: this.played,
      listenedAt: (this.options.now?.() ?? new Date()).toISOString(),
    });
  }
}
