/**
 * Lock-screen and media-key controls through the Media Session API, when the browser has it.
 * Every call is guarded: browsers differ in which actions and fields they accept.
 */
import type { PlayerTrack } from '../types';

export type MediaSessionLike = Pick<
  MediaSession,
  'metadata' | 'playbackState' | 'setActionHandler' | 'setPositionState'
>;
export type MetadataFactory = (init: MediaMetadataInit) => MediaMetadata;

export interface MediaSessionHandlers {
  play(): void;
  pause(): void;
  previous(): void;
  next(): void;
  seekTo(seconds: number): void;
  seekBy(deltaSeconds: number): void;
}

/** Default step of seekbackward / seekforward when the platform gives none. */
export const MEDIA_SEEK_STEP_SECONDS = 10;

export class MediaSessionBridge {
  private readonly session: MediaSessionLike | null;
  private readonly createMetadata: MetadataFactory | null;

  constructor(session: MediaSessionLike | null, createMetadata: MetadataFactory | null) {
    this.session = session;
    this.createMetadata = createMetadata;
  }

  /** Installs the action handlers; returns a function removing them. */
  bind(h: MediaSessionHandlers): () => void {
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => h.play()],
      ['pause', () => h.pause()],
      ['previoustrack', () => h.previous()],
      ['nexttrack', () => h.next()],
      ['seekto', (d) => d.seekTime !== undefined && h.seekTo(d.seekTime)],
      ['seekbackward', (d) => h.seekBy(-(d.seekOffset ?? MEDIA_SEEK_STEP_SECONDS))],
      ['seekforward', (d) => h.seekBy(d.seekOffset ?? MEDIA_SEEK_STEP_SECONDS)],
    ];
    for (const [action, handler] of handlers) this.setHandler(action, handler);
    return () => {
      for (const [action] of handlers) this.setHandler(action, null);
    };
  }

  setTrack(track: PlayerTrack | null): void {
    if (!this.session) return;
    if (!track) {
      this.session.metadata = null;
      this.session.playbackState = 'none';
      return;
    }
    if (!this.createMetadata) return;
    this.session.metadata = this.createMetadata({
      title: track.title,
      artist: track.artist,
      album: track.album ?? '',
      artwork: track.coverImage ? [{ src: track.coverImage, sizes: '512x512' }] : [],
    });
  }

  setPlaying(playing: boolean): void {
    if (this.session) this.session.playbackState = playing ? 'playing' : 'paused';
  }

  /** Position for the lock screen's progress bar; skipped while the length is unknown. */
  setPosition(duration: number, position: number): void {
    if (!this.session?.setPositionState || !(duration > 0) || !Number.isFinite(duration)) return;
    try {
      this.session.setPositionState({
        duration,
        position: Math.min(Math.max(0, position), duration),
        playbackRate: 1,
      });
    } catch {
      // Some browsers reject position updates in edge states; the next update will do.
    }
  }

  private setHandler(action: MediaSessionAction, handler: MediaSessionActionHandler | null): void {
    try {
      this.session?.setActionHandler(action, handler);
    } catch {
      // The browser does not support this action.
    }
  }
}

/** The browser's Media Session, or a bridge that does nothing where there is none. */
export function browserMediaSession(): MediaSessionBridge {
  const session = typeof navigator !== 'undefined' ? (navigator.mediaSession ?? null) : null;
  const createMetadata =
    typeof MediaMetadata === 'function'
      ? (init: MediaMetadataInit) => new MediaMetadata(init)
      : null;
  return new MediaSessionBridge(session, createMetadata);
}
