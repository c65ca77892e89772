import { describe, expect, it, vi } from 'vitest';
import { createTrack } from '../test-tracks';
import { MediaSessionBridge, type MediaSessionLike } from './media-session';

function fakeSession() {
  const handlers = new Map<string, MediaSessionActionHandler | null>();
  const session = {
    metadata: null as MediaMetadata | null,
    playbackState: 'none' as MediaSessionPlaybackState,
    setActionHandler: vi.fn((action: string, handler: MediaSessionActionHandler | null) => {
      if (action === 'seekforward' && handler === null) throw new Error('unsupported');
      handlers.set(action, handler);
    }),
    setPositionState: vi.fn(),
  };
  return { session: session as MediaSessionLike & typeof session, handlers };
}
const createMetadata = (init: MediaMetadataInit) => init as unknown as MediaMetadata;

describe('MediaSessionBridge', () => {
  it('sets metadata with title, artist, album and artwork', () => {
    const { session } = fakeSession();
    const bridge = new MediaSessionBridge(session, createMetadata);
    bridge.setTrack(createTrack({ id: 'a', title: 'Dawn', artist: 'Nova', album: 'Tides' }));
    expect(session.metadata).toEqual({
      title: 'Dawn',
      artist: 'Nova',
      album: 'Tides',
      artwork: [{ src: 'https://cdn.test/a.jpg', sizes: '512x512' }],
    });
    bridge.setTrack(null);
    expect(session.metadata).toBeNull();
    expect(session.playbackState).toBe('none');
  });

  it('a single without cover has an empty album and no artwork', () => {
    const { session } = fakeSession();
    new MediaSessionBridge(session, createMetadata).setTrack(
      createTrack({ id: 'a', coverImage: null }),
    );
    expect(session.metadata).toMatchObject({ album: '', artwork: [] });
  });

  it('routes every action to the player and removes them on unbind', () => {
    const { session, handlers } = fakeSession();
    const h = {
      play: vi.fn(),
      pause: vi.fn(),
      previous: vi.fn(),
      next: vi.fn(),
      seekTo: vi.fn(),
      seekBy: vi.fn(),
    };
    const unbind = new MediaSessionBridge(session, createMetadata).bind(h);
    const fire = (action: MediaSessionAction, details: Partial<MediaSessionActionDetails> = {}) =>
      handlers.get(action)!({ action, ...details });
    fire('play');
    fire('pause');
    fire('previoustrack');
    fire('nexttrack');
    fire('seekto', { seekTime: 42 });
    fire('seekbackward');
    fire('seekforward', { seekOffset: 5 });
    expect(h.play).toHaveBeenCalledOnce();
    expect(h.pause).toHaveBeenCalledOnce();
    expect(h.previous).toHaveBeenCalledOnce();
    expect(h.next).toHaveBeenCalledOnce();
    expect(h.seekTo).toHaveBeenCalledWith(42);
    expect(h.seekBy.mock.calls).toEqual([[-10], [5]]);
    expect(() => unbind()).not.toThrow();
    expect(handlers.get('play')).toBeNull();
  });

  it('position state is clamped and skipped while the length is unknown', () => {
    const { session } = fakeSession();
    const bridge = new MediaSessionBridge(session, createMetadata);
    bridge.setPosition(0, 5);
    bridge.setPosition(Number.POSITIVE_INFINITY, 5);
    bridge.setPosition(100, 120);
    expect(session.setPositionState.mock.calls).toEqual([
      [{ duration: 100, position: 100, playbackRate: 1 }],
    ]);
    session.setPositionState.mockImplementation(() => {
      throw new Error('bad state');
    });
    expect(() => bridge.setPosition(100, 1)).not.toThrow();
  });

  it('without a Media Session everything is a no-op', () => {
    const bridge = new MediaSessionBridge(null, null);
    expect(() => {
      bridge.setTrack(createTrack({ id: 'a' }));
      bridge.setPlaying(true);
      bridge.setPosition(10, 1);
      bridge.bind({
        play() {},
        pause() {},
        previous() {},
        next() {},
        seekTo() {},
        seekBy() {},
      })();
    }).not.toThrow();
  });
});
