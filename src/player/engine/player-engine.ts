/**
 * Plays what the store says. It follows the store (current track, playing flag, volume), takes
 * one-shot commands (seek) from the actions, and reports back through actions: position and
 * length, a track's end, errors. The next track is preloaded once the current one plays (or can
 * play, when paused), so the change is near-gapless. Audio comes from an injected backend (Howler's
 * HTML5 Howls in the app, howler-backend.ts; a fake in tests).
 */
import { subscribe } from 'valtio';
import * as actions from '../actions';
import { onPlayerCommand, type PlayerCommand } from '../commands';
import { emitListenQualified, type ListenQualified } from '../listens';
import {
  NOTHING_DOWNLOADED_MESSAGE,
  NotDownloadedError,
  notDownloadedSkipMessage,
} from '../offline';
import { upcomingTrack } from '../queue';
import { normalisationGainDb, normalisedVolume } from '../loudness';
import { playerState } from '../store';
import { holdPlayerViews, markSoundStarting } from '../ui-hold';
import { whenIdle } from '@/lib/when-idle';
import type { PlayerTrack } from '../types';
import {
  forgetStemsUnlessFor,
  stemGains,
  stemsFailed,
  stemsState,
  syncPlayingSources,
} from '../stems';
import type { AudioBackend, Sound, SoundEvents } from './audio-backend';
import { DeferredSound } from './deferred-sound';
import { ListenTracker } from './listen-tracker';
import { MediaSessionBridge } from './media-session';
import { createStemsSound, type StemsSound } from './stems-sound';

/** How often the position is read while playing. */
export const TICK_MS = 250;
/**
 * At the latest this long after a sound's clock first moved, the next track is preloaded and the
 * lock screen's metadata set, even if the page was never idle (whenIdle's timeout).
 */
export const SETTLE_MS = 1000;
/**
 * A track primed by a press on its play button is dropped when no play follows within this of the
 * press's end (its release: pointerup, pointercancel, keyup). Counted from the release, not the
 * press: a press held long, or a slow device, keeps its load (player.spec once lost it when the
 * press lasted past 2 s under load, and the click loaded the track a second time).
 */
export const PRIME_MS = 2000;
/** A press whose end is never reported (the page lost the pointer) drops its track after this. */
export const PRIME_HELD_MS = 30_000;

export interface EngineOptions {
  backend: AudioBackend;
  /** The signed-in user's profile id, or null: their own uploads are never counted. */
  currentUserId: () => string | null;
  mediaSession?: MediaSessionBridge;
  onListenQualified?: (listen: ListenQualified) => void;
  tickMs?: number;
  /**
   * The URL to play a track from. The app signs the best rendition the listener's plan allows
   * (docs/upload.md, "Playback"); without it the track's audioUrl is played as it is. A URL
   * known at once (a downloaded track, docs/offline.md) is returned as a string: the sound is
   * made in the same task, before React renders the click.
   */
  sourceOf?: (track: PlayerTrack) => string | Promise<string>;
  /** The stems player (Web Audio in the app). */
  createStemsSound?: typeof createStemsSound;
}

interface Loaded {
  track: PlayerTrack;
  sound: Sound;
  loaded: boolean;
  /**
   * Whether its clock has moved once since it was asked to play (the views are held until then).
   */
  started: boolean;
  /**
   * Whether the page has been idle once since its clock moved (or it never had to start): the
   * next track's preload and the lock screen's metadata (whose artwork the browser fetches and
   * decodes on the page's main thread) wait for it, so they never compete with the first sound.
   */
  settled: boolean;
  /** A refused play() was already tried again once (see PLAY_RETRY_MS). */
  playRetried?: boolean;
  /** The stems this entry plays (their URLs joined), or null: the track's own audio. */
  stemsKey: string | null;
  stems: StemsSound | null;
}

/**
 * A refused `play()`: the browser's autoplay policy (NotAllowedError; Howler's wording "not
 * within a user interaction" kept for any backend that reports it so), or a play interrupted by
 * a load or pause of the element (AbortError, seen under load in CI). Broken files arrive as
 * load errors instead, and those are skipped.
 */
const AUTOPLAY_BLOCKED = /NotAllowed|AbortError|user interaction/i;
/**
 * Once the user has interacted with the page the browser does not block autoplay, so a refusal
 * is tried once more after this long before the track is reported as blocked.
 */
const PLAY_RETRY_MS = 300;

function userHasInteracted(): boolean {
  if (typeof navigator === 'undefined') return false;
  const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } })
    .userActivation;
  return activation?.hasBeenActive ?? false;
}

export class PlayerEngine {
  private current: Loaded | null = null;
  private preloaded: Loaded | null = null;
  /**
   * A track whose play button is being pressed (prime): its element loads from the press, before
   * the click that plays it, and becomes the current sound if the click asks for it.
   */
  private primed: Loaded | null = null;
  private primeTimer: ReturnType<typeof setTimeout> | null = null;
  /** Whether the current sound has been asked to play (it may still be buffering). */
  private playing = false;
  private ticker: ReturnType<typeof setInterval> | null = null;
  private consecutiveErrors = 0;
  /** A track whose preload failed while this one plays: not preloaded again on every tick. */
  private failedPreload: string | null = null;
  /** The track whose metadata the Media Session shows (showMetadata). */
  private metadataFor: PlayerTrack | null = null;
  /** Ends the hold on the player's views while a sound starts (ui-hold.ts). */
  private releaseViews: (() => void) | null = null;
  /** Ends the current sound's start (markSoundStarting, ui-hold.ts): it has settled or failed. */
  private endStarting: (() => void) | null = null;
  private readonly tracker: ListenTracker;
  private readonly media: MediaSessionBridge;
  private readonly options: EngineOptions;

  constructor(options: EngineOptions) {
    this.options = options;
    this.media = options.mediaSession ?? new MediaSessionBridge(null, null);
    this.tracker = new ListenTracker({
      currentUserId: options.currentUserId,
      onQualified: options.onListenQualified ?? emitListenQualified,
    });
  }

  /** Starts following the store; returns a function that stops and frees the audio. */
  start(): () => void {
    const unsubscribeStore = subscribe(playerState, () => this.sync());
    const unsubscribeStems = subscribe(stemsState, () => this.applyMix());
    const unsubscribeCommands = onPlayerCommand((command) => this.handle(command));
    const unbindMedia = this.media.bind({
      play: actions.play,
      pause: actions.pause,
      previous: actions.previous,
      next: actions.next,
      seekTo: actions.seek,
      seekBy: actions.seekBy,
    });
    this.sync();
    return () => {
      unsubscribeStore();
      unsubscribeStems();
      unsubscribeCommands();
      unbindMedia();
      this.unloadCurrent();
      this.dropPreloaded();
      this.dropPrimed();
    };
  }

  /**
   * The listener presses a track's play button (pointerdown, or the key that will click it): its
   * element starts loading now, so the click finds its request already out instead of waiting
   * for the click's task and the frame after it (docs/player.md, "Loading from the press"). A
   * press on the current or the preloaded track does nothing; a press with no play after it is
   * dropped PRIME_MS after its end (primeReleased; its Howl is unloaded, its element goes back to
   * Howler's pool), or PRIME_HELD_MS after it when its end never comes.
   */
  prime(track: PlayerTrack): void {
    if (
      this.current?.track.id === track.id ||
      this.preloaded?.track.id === track.id ||
      this.primed?.track.id === track.id
    )
      return;
    this.dropPrimed();
    this.primed = this.createLoaded(track);
    this.primeTimer = setTimeout(() => this.dropPrimed(), PRIME_HELD_MS);
  }

  /** The press that primed a track has ended: its click, if one comes, comes now. */
  primeReleased(): void {
    if (!this.primed) return;
    this.clearPrimeTimer();
    this.primeTimer = setTimeout(() => this.dropPrimed(), PRIME_MS);
  }

  /** Brings the audio in line with the store. Cheap: runs on every store change. */
  sync(): void {
    const s = playerState;
    const track = s.currentTrack;
    this.options.backend.setVolume(this.outputVolume());
    forgetStemsUnlessFor(track?.id ?? null);
    if (!track) {
      this.unloadCurrent();
      this.dropPreloaded();
      this.metadataFor = null;
      this.media.setTrack(null);
      return;
    }
    if (this.current?.track.id !== track.id) this.load(track, s.currentTime);
    const current = this.current;
    if (!current) return;
    const stemsKey = s.stems ? s.stems.join('\n') : null;
    if (current.stemsKey !== stemsKey) this.swapSound(current, s.stems ? [...s.stems] : null);
    this.applyMix();
    if (s.isPlaying && !this.playing) {
      this.playing = true;
      // Audio first: the views draw once it plays (or fails), at most a moment later.
      if (!current.started && !current.stems) this.releaseViews = holdPlayerViews();
      if (!current.settled) {
        const previous = this.endStarting;
        this.endStarting = markSoundStarting();
        previous?.();
      }
      current.sound.play();
    } else if (!s.isPlaying && this.playing) {
      this.stopTicker();
      this.tick();
      this.pauseCurrent(current);
    }
    if (current.loaded && s.duration === 0) actions.syncDuration(current.sound.duration());
    if (!this.playing || current.settled) this.showMetadata();
    this.preloadUpcoming();
  }

  private load(track: PlayerTrack, startAt: number): void {
    this.stopTicker();
    this.failedPreload = null;
    const old = this.current;
    if (this.preloaded?.track.id === track.id) {
      this.current = this.preloaded;
      this.preloaded = null;
    } else if (this.primed?.track.id === track.id) {
      this.current = this.primed;
      this.primed = null;
      this.clearPrimeTimer();
    } else {
      this.current = this.createLoaded(track);
    }
    old?.sound.unload();
    this.playing = false;
    if (startAt > 0) this.current.sound.seek(startAt);
    this.tracker.begin(track, startAt);
    if (this.current.loaded) this.onLoaded(this.current);
    this.media.setPlaying(false);
  }

  /**
   * The lock screen's title, artist and artwork for the current track. Chromium fetches the
   * artwork through the page (the service worker) and decodes it on the page's main thread, the
   * thread the media element's own loading needs while a sound starts: so a track asked to play
   * shows it once the page has been idle after its first sound, a paused one at once.
   */
  private showMetadata(): void {
    const track = this.current?.track ?? null;
    if (this.metadataFor === track) return;
    this.metadataFor = track;
    this.media.setTrack(track);
  }

  /** The player's volume, normalised to the track's loudness when that is on. */
  private outputVolume(): number {
    const s = playerState;
    const track = s.currentTrack;
    const gainDb =
      s.normalise && track ? normalisationGainDb(track.loudnessLufs, track.truePeakDb) : 0;
    return s.muted ? 0 : normalisedVolume(s.volume, gainDb);
  }

  private createLoaded(track: PlayerTrack): Loaded {
    const entry: Loaded = {
      track,
      sound: undefined as unknown as Sound,
      loaded: false,
      started: false,
      settled: false,
      stemsKey: null,
      stems: null,
    };
    entry.sound = this.ownSound(entry);
    return entry;
  }

  /** The track's own audio: the signed rendition the plan allows, else its audioUrl. */
  private ownSound(entry: Loaded): Sound {
    const events = this.eventsFor(entry);
    const { backend, sourceOf } = this.options;
    if (!sourceOf) return backend.createSound(entry.track.audioUrl, { preload: true }, events);
    const url = sourceOf(entry.track);
    if (typeof url === 'string') return backend.createSound(url, { preload: true }, events);
    return new DeferredSound(
      url.then((src) => () => backend.createSound(src, { preload: true }, events)),
      events,
    );
  }

  /**
   * Stems on or off for the playing entry: the other sound takes over at the same position (and
   * plays if the store says so, on the next line of sync).
   */
  private swapSound(entry: Loaded, stems: string[] | null): void {
    const position = entry.sound.position() || playerState.currentTime;
    this.stopTicker();
    entry.sound.unload();
    entry.loaded = false;
    entry.stemsKey = stems ? stems.join('\n') : null;
    entry.stems = stems
      ? (this.options.createStemsSound ?? createStemsSound)(
          stems,
          this.eventsFor(entry),
          syncPlayingSources,
        )
      : null;
    entry.sound = entry.stems ?? this.ownSound(entry);
    if (position > 0) entry.sound.seek(position);
    this.playing = false;
  }

  /** The stems' mix and the player's volume on the stems player. */
  private applyMix(): void {
    const stems = this.current?.stems;
    if (!stems) return;
    stems.setMaster(this.outputVolume());
    stems.setGains(stemGains(stemsState.mix));
  }

  private eventsFor(entry: Loaded): SoundEvents {
    return {
      onLoad: () => {
        entry.loaded = true;
        if (entry === this.current) this.onLoaded(entry);
      },
      onLoadError: (error) => this.onError(entry, 'load', error),
      onPlayError: (error) => this.onError(entry, 'play', error),
      onPlay: () => {
        if (entry !== this.current) return;
        this.consecutiveErrors = 0;
        this.startTicker();
        // The lock screen's state and position wait for the first sound too (settled).
        if (entry.settled) {
          this.media.setPlaying(true);
          this.updatePosition();
        }
        this.onceAdvancing(entry);
      },
      onPause: () => {
        if (entry === this.current) this.stopTicker();
      },
      onEnd: () => {
        if (entry !== this.current) return;
        this.playing = false;
        this.stopTicker();
        this.tracker.ended();
        // Rewind first: a restart (repeat one, a one-track repeat all) plays from the start.
        entry.sound.seek(0);
        this.tracker.seeked(0);
        actions.trackEnded();
        // The end of the queue keeps the track, paused at its start: sync sees nothing to pause
        // (this.playing is already false), so the lock screen is told here.
        if (!playerState.isPlaying) this.media.setPlaying(false);
      },
    };
  }

  private onLoaded(entry: Loaded): void {
    const duration = entry.sound.duration();
    this.tracker.setDuration(duration);
    actions.syncDuration(duration);
    this.updatePosition();
    this.preloadUpcoming();
  }

  private showViews(): void {
    this.releaseViews?.();
    this.releaseViews = null;
  }

  /**
   * Once the playing sound's clock has moved: the views draw (audio first, ui-hold.ts); once the
   * page is idle after that, the lock screen's metadata is set and the next track is preloaded
   * (settled). 'playing' comes before the first samples, and a render, an artwork's decode or a
   * second file's pipeline started in between delayed them. Checked each macrotask, at most 40
   * times.
   */
  private onceAdvancing(entry: Loaded): void {
    const started = () => {
      entry.started = true;
      this.showViews();
      if (entry.settled) return this.preloadUpcoming();
      whenIdle(() => {
        entry.settled = true;
        if (entry !== this.current) return;
        this.endStarting?.();
        this.endStarting = null;
        this.showMetadata();
        this.media.setPlaying(this.playing);
        this.updatePosition();
        this.preloadUpcoming();
      }, SETTLE_MS);
    };
    if (entry.started) return started();
    const from = entry.sound.position();
    let checks = 0;
    const check = () => {
      if (entry !== this.current) return;
      const moved = entry.sound.position() > from;
      if (moved || !this.playing || ++checks > 40) started();
      else setTimeout(check, 0);
    };
    check();
  }

  private onError(entry: Loaded, kind: 'load' | 'play', error: unknown): void {
    if (entry === this.current) {
      this.showViews();
      this.endStarting?.();
      this.endStarting = null;
      this.showMetadata();
    }
    if (entry === this.preloaded) {
      // It will be tried again (and reported) if it becomes the current track.
      this.failedPreload = entry.track.id;
      this.dropPreloaded();
      return;
    }
    if (entry === this.primed) {
      // The click, if it comes, loads it again and reports the error.
      this.dropPrimed();
      return;
    }
    if (entry !== this.current) return;
    const refused = kind === 'play' && AUTOPLAY_BLOCKED.test(String(error));
    if (refused && !entry.stems && !entry.playRetried && userHasInteracted()) {
      entry.playRetried = true;
      setTimeout(() => {
        if (entry === this.current && this.playing && playerState.isPlaying) entry.sound.play();
      }, PLAY_RETRY_MS);
      return;
    }
    this.playing = false;
    this.stopTicker();
    if (entry.stems) {
      // The stems could not be fetched or decoded: back to the track itself.
      stemsFailed();
      return;
    }
    const title = entry.track.title;
    if (refused) {
      actions.reportError(`The browser blocked playback of "${title}". Press play to start it.`);
      actions.syncPaused();
      return;
    }
    this.consecutiveErrors += 1;
    // Offline, a track that is not downloaded is skipped with its own message (docs/offline.md).
    const offline = error instanceof NotDownloadedError;
    if (this.consecutiveErrors >= Math.max(1, playerState.queue.length)) {
      actions.reportError(offline ? NOTHING_DOWNLOADED_MESSAGE : `Couldn't ${kind} "${title}".`);
      actions.syncPaused();
      return;
    }
    actions.reportError(
      offline
        ? notDownloadedSkipMessage(title)
        : `Couldn't ${kind} "${title}". Skipped to the next track.`,
    );
    // Forget the broken sound so a later return to this track tries again.
    entry.sound.unload();
    this.current = null;
    actions.next();
  }

  private pauseCurrent(current: Loaded): void {
    this.playing = false;
    current.sound.pause();
    this.media.setPlaying(false);
  }

  private handle(command: PlayerCommand): void {
    if (command.type !== 'seek' || !this.current) return;
    // A seek that comes with a pause (Next at the end of the queue: the track back at its start,
    // paused) pauses first: a sound still playing would move on from the seek before sync's pause
    // read its position, and the bar would rest a moment past the start.
    if (!playerState.isPlaying && this.playing) {
      this.stopTicker();
      this.pauseCurrent(this.current);
    }
    this.current.sound.seek(command.time);
    this.tracker.seeked(command.time);
    this.updatePosition(command.time);
  }

  /**
   * Loads the next track once the current one can play and, when it was asked to play, the page
   * has been idle after its clock moved (settled): a second file loading while the first starts
   * delays the first sound (docs/offline.md, "Figures").
   */
  private preloadUpcoming(): void {
    if (!this.current?.loaded) return;
    // Asked to play (by the engine, or by the store in the click that is loading it: a Next
    // onto the preloaded track is loaded, then played, in the same sync) and not settled yet.
    if ((this.playing || playerState.isPlaying) && !this.current.settled) return;
    const upcoming = upcomingTrack(playerState);
    if (!upcoming || upcoming.id === this.current.track.id) {
      this.dropPreloaded();
      return;
    }
    if (this.preloaded?.track.id === upcoming.id) return;
    this.dropPreloaded();
    if (this.failedPreload === upcoming.id) return;
    this.preloaded = this.createLoaded(upcoming);
  }

  private tick(): void {
    if (!this.current) return;
    const position = this.current.sound.position();
    if (this.playing) this.tracker.progress(position);
    actions.syncTime(position);
  }

  private startTicker(): void {
    if (this.ticker !== null) return;
    this.ticker = setInterval(() => this.tick(), this.options.tickMs ?? TICK_MS);
  }

  private stopTicker(): void {
    if (this.ticker !== null) clearInterval(this.ticker);
    this.ticker = null;
  }

  private updatePosition(position = playerState.currentTime): void {
    const duration = playerState.duration || this.current?.sound.duration() || 0;
    this.media.setPosition(duration, position);
  }

  private unloadCurrent(): void {
    this.showViews();
    this.endStarting?.();
    this.endStarting = null;
    this.stopTicker();
    this.current?.sound.unload();
    this.current = null;
    this.playing = false;
  }

  private dropPreloaded(): void {
    this.preloaded?.sound.unload();
    this.preloaded = null;
  }

  private dropPrimed(): void {
    this.clearPrimeTimer();
    this.primed?.sound.unload();
    this.primed = null;
  }

  private clearPrimeTimer(): void {
    if (this.primeTimer !== null) clearTimeout(this.primeTimer);
    this.primeTimer = null;
  }
}
