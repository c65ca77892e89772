import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from '../actions';
import type { ListenQualified } from '../listens';
import { NOTHING_DOWNLOADED_MESSAGE, NotDownloadedError } from '../offline';
import { playerState } from '../store';
import { createTrack } from '../test-tracks';
import { FakeBackend } from './fake-backend';
import { MediaSessionBridge } from './media-session';
import { PlayerEngine } from './player-engine';
import { afterSoundsStart, whenViewsMayDraw } from '../ui-hold';

const a = createTrack({ id: 'a', title: 'Alpha', duration: 100 });
const b = createTrack({ id: 'b', title: 'Beta', duration: 100 });
const c = createTrack({ id: 'c', title: 'Gamma', duration: 100 });
/** Valtio notifies subscribers in a microtask. */
const settle = () => vi.advanceTimersByTimeAsync(0);
/** The page's first idle moment (whenIdle waits at most 200 ms where requestIdleCallback is missing, as in jsdom). */
const idle = () => vi.advanceTimersByTimeAsync(200);

/** Track a, alone in the queue, clicked: its sound loaded (100 s) and playing. */
async function playingAlone() {
  actions.clickTrack([a], a);
  await settle();
  const sound = backend.sound('a');
  sound.load(100);
  sound.started();
  return sound;
}

let backend: FakeBackend;
let listens: ListenQualified[];
let stop: () => void;
let session: {
  metadata: unknown;
  playbackState: string;
  setActionHandler: ReturnType<typeof vi.fn>;
  setPositionState: ReturnType<typeof vi.fn>;
};

beforeEach(() => {
  vi.useFakeTimers();
  actions.resetPlayer();
  backend = new FakeBackend();
  listens = [];
  session = {
    metadata: null,
    playbackState: 'none',
    setActionHandler: vi.fn(),
    setPositionState: vi.fn(),
  };
  const mediaSession = new MediaSessionBridge(
    session as unknown as MediaSession,
    (init) => init as unknown as MediaMetadata,
  );
  stop = new PlayerEngine({
    backend,
    currentUserId: () => 'listener',
    mediaSession,
    onListenQualified: (listen) => listens.push(listen),
  }).start();
});
afterEach(() => {
  stop();
  vi.useRealTimers();
});

describe('PlayerEngine', () => {
  it('holds the views from the click until the sound plays and its clock moves (audio first)', async () => {
    actions.clickTrack([a, b], a);
    await settle();
    const drawn = vi.fn();
    whenViewsMayDraw(drawn);
    await settle();
    expect(drawn).not.toHaveBeenCalled();
    const sound = backend.sound('a');
    sound.load(100);
    sound.events.onPlay();
    await settle();
    // 'playing', but its clock has not moved yet: no render, and the next track waits too.
    expect(drawn).not.toHaveBeenCalled();
    expect(backend.live()).toEqual(['a']);
    sound.currentPosition = 0.02;
    await vi.advanceTimersByTimeAsync(5);
    expect(drawn).toHaveBeenCalledOnce();
    // The next track and the lock screen's artwork wait for the page's next idle moment.
    expect(backend.live()).toEqual(['a']);
    expect(session.metadata).toBeNull();
    await idle();
    expect(backend.live()).toEqual(['a', 'b']);
    expect(session.metadata).toMatchObject({ title: 'Alpha' });
  });

  it('draws the views anyway when the sound takes long, fails, or is paused at once', async () => {
    actions.clickTrack([a, b], a);
    await settle();
    const late = vi.fn();
    whenViewsMayDraw(late);
    await vi.advanceTimersByTimeAsync(149);
    expect(late).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(late).toHaveBeenCalledOnce();

    actions.clickTrack([a, b], b);
    await settle();
    const failed = vi.fn();
    whenViewsMayDraw(failed);
    backend.sound('b').events.onLoadError(new Error('MediaError 4'));
    await settle();
    expect(failed).toHaveBeenCalledOnce();

    // A paused track holds nothing: the views draw at once.
    actions.pause();
    await settle();
    const paused = vi.fn();
    whenViewsMayDraw(paused);
    expect(paused).toHaveBeenCalledOnce();
  });

  it('streams the clicked track with HTML5 audio and plays it', async () => {
    actions.clickTrack([a, b], a);
    await settle();
    const sound = backend.sound('a');
    expect(sound.options.preload).toBe(true);
    expect(sound.calls).toEqual(['play']);
    expect(session.metadata).toBeNull();
    sound.started();
    await idle();
    expect(session.metadata).toMatchObject({ title: 'Alpha', artist: 'Artist' });
  });

  it('work that can wait (emptying a replaced element) waits until the new sound has settled', async () => {
    actions.clickTrack([a, b], a);
    await settle();
    const later = vi.fn();
    afterSoundsStart(later);
    expect(later).not.toHaveBeenCalled();
    const sound = backend.sound('a');
    sound.load(100);
    sound.started();
    await settle();
    // Its clock moved, the views draw; the page's next idle moment ends the start.
    expect(later).not.toHaveBeenCalled();
    await idle();
    expect(later).toHaveBeenCalledOnce();
    // A start that never settles ends by itself after 3 s.
    actions.clickTrack([a, b], b);
    await settle();
    const stuck = vi.fn();
    afterSoundsStart(stuck);
    await vi.advanceTimersByTimeAsync(2999);
    expect(stuck).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(stuck).toHaveBeenCalledOnce();
  });

  it('a paused track shows its metadata at once', async () => {
    actions.clickTrack([a, b], a);
    actions.pause();
    await settle();
    expect(session.metadata).toMatchObject({ title: 'Alpha' });
  });

  it('feeds the position to the store while playing, and stops on pause', async () => {
    const sound = await playingAlone();
    sound.currentPosition = 1.5;
    await vi.advanceTimersByTimeAsync(250);
    expect(playerState.currentTime).toBe(1.5);
    expect(playerState.duration).toBe(100);
    actions.pause();
    await settle();
    expect(sound.calls.at(-1)).toBe('pause');
    sound.currentPosition = 9;
    await vi.advanceTimersByTimeAsync(1000);
    expect(playerState.currentTime).toBe(1.5);
  });

  it('preloads the next track once the current one plays, and switches to it', async () => {
    actions.clickTrack([a, b, c], a);
    await settle();
    expect(backend.live()).toEqual(['a']);
    backend.sound('a').load(100);
    await settle();
    // Loaded but not playing yet: a second file loading now would delay the first sound.
    expect(backend.live()).toEqual(['a']);
    backend.sound('a').started();
    await settle();
    expect(backend.live()).toEqual(['a']);
    await idle();
    expect(backend.live()).toEqual(['a', 'b']);
    const preloaded = backend.sound('b');
    preloaded.load(100);
    actions.next();
    await settle();
    expect(backend.sound('b')).toBe(preloaded);
    expect(preloaded.calls).toEqual(['play']);
    expect(playerState.duration).toBe(100);
    // The one after it waits until this one has settled: no second file loads beside its start.
    expect(backend.live()).toEqual(['b']);
    preloaded.started();
    await idle();
    expect(backend.live()).toEqual(['b', 'c']);
  });

  it("a press on a track's play button loads it before the click, which plays that element", async () => {
    const engine = new PlayerEngine({ backend, currentUserId: () => null });
    stop();
    stop = engine.start();
    engine.prime(b);
    expect(backend.live()).toEqual(['b']);
    const primed = backend.sound('b');
    expect(primed.calls).toEqual([]);
    primed.load(100);
    actions.clickTrack([a, b, c], b);
    await settle();
    expect(backend.sound('b')).toBe(primed);
    expect(primed.calls).toEqual(['play']);
    expect(backend.sounds).toHaveLength(1);
    expect(playerState.duration).toBe(100);
    // A press on the current track (its click pauses) loads nothing.
    engine.prime(b);
    expect(backend.sounds).toHaveLength(1);
  });

  it('a press held past 2 s (a slow device, a long press) still plays the element it loaded', async () => {
    const engine = new PlayerEngine({ backend, currentUserId: () => null });
    stop();
    stop = engine.start();
    engine.prime(b);
    const primed = backend.sound('b');
    await vi.advanceTimersByTimeAsync(4000);
    primed.load(100);
    engine.primeReleased();
    actions.clickTrack([a, b, c], b);
    await settle();
    expect(backend.sound('b')).toBe(primed);
    expect(primed.calls).toEqual(['play']);
    expect(backend.sounds).toHaveLength(1);
  });

  it('a press with no play after it is dropped, and a failed one is loaded again by the click', async () => {
    const engine = new PlayerEngine({ backend, currentUserId: () => null });
    stop();
    stop = engine.start();
    engine.prime(a);
    // Another press replaces it.
    engine.prime(b);
    expect(backend.live()).toEqual(['b']);
    // Held: however long the press lasts, its load stays; dropped 2 s after its release.
    await vi.advanceTimersByTimeAsync(5000);
    expect(backend.live()).toEqual(['b']);
    engine.primeReleased();
    await vi.advanceTimersByTimeAsync(1999);
    expect(backend.live()).toEqual(['b']);
    await vi.advanceTimersByTimeAsync(1);
    expect(backend.live()).toEqual([]);
    // A press whose end never comes is dropped too, later.
    engine.prime(a);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(backend.live()).toEqual([]);

    engine.prime(c);
    backend.sound('c').events.onLoadError(new Error('MediaError 4'));
    expect(backend.live()).toEqual([]);
    expect(playerState.error).toBeNull();
    actions.clickTrack([a, b, c], c);
    await settle();
    const again = backend.sound('c');
    expect(again.calls).toEqual(['play']);
    again.events.onLoadError(new Error('MediaError 4'));
    expect(playerState.error).toBe('Couldn\'t load "Gamma". Skipped to the next track.');
  });

  it('a paused track that can play preloads the next one', async () => {
    actions.clickTrack([a, b], a);
    actions.pause();
    await settle();
    backend.sound('a').load(100);
    await settle();
    expect(backend.live()).toEqual(['a', 'b']);
  });

  it('drops a preload that is no longer next (shuffle on)', async () => {
    actions.clickTrack([a, b], a);
    await settle();
    backend.sound('a').load(100);
    backend.sound('a').started();
    await idle();
    expect(backend.live()).toEqual(['a', 'b']);
    actions.toggleShuffle();
    await settle();
    expect(backend.live()).toEqual(['a']);
  });

  it('a track end advances; repeat one restarts the same sound', async () => {
    actions.clickTrack([a, b], a);
    actions.cycleRepeat();
    actions.cycleRepeat(); // one
    await settle();
    const sound = backend.sound('a');
    sound.load(100);
    sound.started();
    await idle();
    expect(session.playbackState).toBe('playing');
    sound.end();
    await settle();
    expect(playerState.currentTrack?.id).toBe('a');
    expect(sound.calls.slice(-2)).toEqual(['seek:0', 'play']);
    expect(session.playbackState).toBe('playing');
    actions.cycleRepeat(); // off
    sound.end();
    await settle();
    expect(playerState.currentTrack?.id).toBe('b');
  });

  it('the end of the queue without repeat keeps the track, paused at its start', async () => {
    const sound = await playingAlone();
    await idle();
    expect(session.playbackState).toBe('playing');
    sound.end();
    await settle();
    expect(playerState).toMatchObject({ currentTrack: a, isPlaying: false, currentTime: 0 });
    expect(backend.live()).toEqual(['a']);
    expect(session.playbackState).toBe('paused');
    expect(session.metadata).toMatchObject({ title: a.title });
    expect(session.setPositionState).toHaveBeenLastCalledWith({
      duration: 100,
      position: 0,
      playbackRate: 1,
    });
    // Play starts it again from 0 (the sound was rewound on its end, not reloaded).
    actions.play();
    await settle();
    expect(sound.calls.slice(-2)).toEqual(['seek:0', 'play']);
    expect(backend.live()).toEqual(['a']);
  });

  it('next at the end of the queue pauses the sound, then rewinds it to the start', async () => {
    const sound = await playingAlone();
    await idle();
    actions.seek(40);
    // A playing element's clock moves on after a seek.
    const seek = sound.seek.bind(sound);
    sound.seek = (seconds) => {
      seek(seconds);
      if (sound.playing) sound.currentPosition += 0.05;
    };
    actions.next();
    await settle();
    expect(sound.calls.slice(-2)).toEqual(['pause', 'seek:0']);
    expect(playerState).toMatchObject({ currentTrack: a, isPlaying: false, currentTime: 0 });
    expect(session.playbackState).toBe('paused');
    expect(backend.live()).toEqual(['a']);
  });

  it('seek commands reach the sound', async () => {
    actions.clickTrack([a], a);
    await settle();
    backend.sound('a').load(100);
    actions.seek(42);
    expect(backend.sound('a').calls).toContain('seek:42');
    expect(session.setPositionState).toHaveBeenLastCalledWith({
      duration: 100,
      position: 42,
      playbackRate: 1,
    });
  });

  it('binds the lock-screen actions to the player', async () => {
    const handler = (action: string) =>
      session.setActionHandler.mock.calls.find(([name]) => name === action)![1] as (
        details: Partial<MediaSessionActionDetails>,
      ) => void;
    actions.clickTrack([a, b], a);
    await settle();
    handler('pause')({});
    expect(playerState.isPlaying).toBe(false);
    handler('nexttrack')({});
    expect(playerState.currentTrack?.id).toBe('b');
    handler('previoustrack')({});
    expect(playerState.currentTrack?.id).toBe('a');
    handler('seekto')({ seekTime: 12 });
    expect(playerState.currentTime).toBe(12);
  });

  it('volume and mute drive the master volume', async () => {
    actions.setVolume(0.3);
    await settle();
    expect(backend.volume).toBe(0.3);
    actions.toggleMute();
    await settle();
    expect(backend.volume).toBe(0);
  });

  it('normalises each track toward -14 LUFS from its measured loudness, unless turned off', async () => {
    const loud = createTrack({ id: 'loud', loudnessLufs: -8, truePeakDb: -0.1 });
    const quiet = createTrack({ id: 'quiet', loudnessLufs: -20, truePeakDb: -4 });
    actions.setVolume(0.5);
    actions.clickTrack([loud, quiet], loud);
    await settle();
    expect(backend.volume).toBeCloseTo(0.5 * 10 ** (-6 / 20)); // -6 dB
    actions.next();
    await settle();
    expect(backend.volume).toBeCloseTo(0.5 * 10 ** (3 / 20)); // +3 dB: the peak's room
    actions.setNormalise(false);
    await settle();
    expect(backend.volume).toBe(0.5);
  });

  it('a restored track loads paused at the saved position', async () => {
    actions.restore({ currentTrack: b, queue: [a, b], currentTime: 33 });
    await settle();
    expect(backend.sound('b').calls).toEqual(['seek:33']);
  });

  it('a load error is shown and skipped to the next track', async () => {
    actions.clickTrack([a, b, c], a);
    await settle();
    backend.sound('a').events.onLoadError('404');
    await settle();
    expect(playerState.error).toBe('Couldn\'t load "Alpha". Skipped to the next track.');
    expect(playerState.currentTrack?.id).toBe('b');
    expect(backend.sound('b').calls).toEqual(['play']);
  });

  it('stops trying when every track of the queue failed', async () => {
    actions.clickTrack([a, b], a);
    actions.cycleRepeat(); // all: would loop forever
    await settle();
    backend.sound('a').events.onLoadError('404');
    await settle();
    backend.sound('b').events.onPlayError('decode');
    await settle();
    expect(playerState).toMatchObject({ isPlaying: false, error: 'Couldn\'t play "Beta".' });
  });

  it('an autoplay block pauses instead of skipping', async () => {
    actions.clickTrack([a, b], a);
    await settle();
    backend.sound('a').events.onPlayError('NotAllowedError: play() failed');
    await settle();
    expect(playerState).toMatchObject({ isPlaying: false, currentTrack: a });
    expect(playerState.error).toMatch(/Press play/);
    // No loop: nothing tries again by itself (the page had no user activation).
    await vi.advanceTimersByTimeAsync(5000);
    expect(backend.sound('a').calls).toEqual(['play']);
    // The listener's Play starts the same sound.
    actions.play();
    await settle();
    expect(backend.sound('a').calls).toEqual(['play', 'play']);
    expect(playerState).toMatchObject({ isPlaying: true, currentTrack: a });
  });

  it('after the user has interacted, a refused play is tried once more before it is reported', async () => {
    const nav = navigator as Navigator & { userActivation?: { hasBeenActive: boolean } };
    const had = Object.getOwnPropertyDescriptor(nav, 'userActivation');
    Object.defineProperty(nav, 'userActivation', {
      value: { hasBeenActive: true },
      configurable: true,
    });
    try {
      actions.clickTrack([a, b], a);
      await settle();
      const sound = backend.sound('a');
      expect(sound.calls).toEqual(['play']);
      // Howler's message for any refused play(), an interrupted one (AbortError) too.
      sound.events.onPlayError('Playback was unable to start ... not within a user interaction.');
      await vi.advanceTimersByTimeAsync(400);
      expect(sound.calls).toEqual(['play', 'play']);
      expect(playerState).toMatchObject({ isPlaying: true, error: null, currentTrack: a });
      // A second refusal is the browser's word: paused, with the message.
      sound.events.onPlayError('Playback was unable to start ... not within a user interaction.');
      await settle();
      expect(playerState).toMatchObject({ isPlaying: false, currentTrack: a });
      expect(playerState.error).toMatch(/Press play/);
    } finally {
      if (had) Object.defineProperty(nav, 'userActivation', had);
      else delete (nav as { userActivation?: unknown }).userActivation;
    }
  });

  it('a failing preload is dropped silently', async () => {
    actions.clickTrack([a, b], a);
    await settle();
    backend.sound('a').load(100);
    backend.sound('a').started();
    await idle();
    backend.sound('b').events.onLoadError('404');
    expect(playerState.error).toBeNull();
    expect(backend.live()).toEqual(['a']);
    // Not tried again on every tick (offline that would be a request every 250 ms).
    actions.syncTime(5);
    await settle();
    expect(backend.live()).toEqual(['a']);
  });

  it('emits a qualified listen after 30 s of playback', async () => {
    const sound = await playingAlone();
    for (let t = 0.25; t <= 30; t += 0.25) {
      sound.currentPosition = t;
      await vi.advanceTimersByTimeAsync(250);
    }
    expect(listens.map((l) => [l.trackId, l.listenerId])).toEqual([['a', 'listener']]);
  });

  it('a seek does not count towards the 30 s', async () => {
    const sound = await playingAlone();
    actions.seek(80);
    for (let t = 80.25; t <= 99; t += 0.25) {
      sound.currentPosition = t;
      await vi.advanceTimersByTimeAsync(250);
    }
    expect(listens).toEqual([]);
  });
});

describe('PlayerEngine with sourceOf (signed URLs)', () => {
  it('plays the URL the source gives, carrying play and seek over the wait', async () => {
    stop();
    const signed = new Map<string, (url: string) => void>();
    stop = new PlayerEngine({
      backend,
      currentUserId: () => 'listener',
      sourceOf: (track) => new Promise((resolve) => signed.set(track.id, resolve)),
    }).start();
    actions.clickTrack([a, b], a);
    await settle();
    expect(backend.sounds).toEqual([]);
    actions.seek(12);
    signed.get('a')!('/storage/v1/object/sign/renditions/a/standard.mp3?token=t#/a.mp3');
    await settle();
    const sound = backend.sound('a');
    expect(sound.src).toContain('/object/sign/renditions/a/standard.mp3');
    expect(sound.calls).toEqual(['seek:12', 'play']);
  });

  it('a URL known at once (a downloaded track) makes the sound in the same task', () => {
    stop();
    const engine = new PlayerEngine({
      backend,
      currentUserId: () => 'listener',
      sourceOf: (track) => `/offline-audio/listener/${track.id}.mp3`,
    });
    stop = engine.start();
    actions.clickTrack([a, b], a);
    engine.sync(); // what the store's notification runs; no promise to wait for
    expect(backend.sound('a').src).toBe('/offline-audio/listener/a.mp3');
    expect(backend.sound('a').calls).toEqual(['play']);
  });

  it('a refused source is a load error: reported and skipped', async () => {
    stop();
    stop = new PlayerEngine({
      backend,
      currentUserId: () => 'listener',
      sourceOf: (track) =>
        track.id === 'a'
          ? Promise.reject(new Error('This track is not available to you.'))
          : Promise.resolve(track.audioUrl),
    }).start();
    actions.clickTrack([a, b], a);
    await settle();
    expect(playerState.error).toBe('Couldn\'t load "Alpha". Skipped to the next track.');
    expect(playerState.currentTrack?.id).toBe('b');
  });

  it('offline, a track that is not downloaded is skipped with its message, and no loop', async () => {
    stop();
    stop = new PlayerEngine({
      backend,
      currentUserId: () => 'listener',
      sourceOf: (track) =>
        track.id === 'b'
          ? Promise.resolve(track.audioUrl)
          : Promise.reject(new NotDownloadedError(track.title)),
    }).start();
    actions.clickTrack([a, b], a);
    await settle();
    expect(playerState.error).toBe(
      'You\'re offline and "Alpha" is not downloaded. Skipped to the next track.',
    );
    expect(playerState.currentTrack?.id).toBe('b');
    stop();
    stop = new PlayerEngine({
      backend,
      currentUserId: () => 'listener',
      sourceOf: (track) => Promise.reject(new NotDownloadedError(track.title)),
    }).start();
    actions.cycleRepeat(); // all: would loop forever
    actions.clickTrack([a, b], a);
    await settle();
    expect(playerState).toMatchObject({ isPlaying: false, error: NOTHING_DOWNLOADED_MESSAGE });
  });
});
