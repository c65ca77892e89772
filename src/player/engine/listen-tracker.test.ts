// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { ListenQualified } from '../listens';
import { createTrack } from '../test-tracks';
import { ListenTracker } from './listen-tracker';

const long = createTrack({ id: 'long', duration: 200, uploadedBy: 'artist' });
const short = createTrack({ id: 'short', duration: 12, uploadedBy: 'artist' });

function setup(userId: string | null = 'listener') {
  const qualified: ListenQualified[] = [];
  const tracker = new ListenTracker({
    currentUserId: () => userId,
    onQualified: (listen) => qualified.push(listen),
    now: () => new Date('2026-11-22T08:00:00Z'),
  });
  return { tracker, qualified };
}

/** Plays from `from` to `to` in 0.25 s ticks, as the engine does. */
function playRange(tracker: ListenTracker, from: number, to: number) {
  for (let t = from + 0.25; t <= to + 1e-9; t += 0.25) tracker.progress(t);
}

describe('ListenTracker: what counts as a play', () => {
  it('qualifies after 30 s of playback, once, with the listen details', () => {
    const { tracker, qualified } = setup();
    tracker.begin(long);
    playRange(tracker, 0, 29.75);
    expect(qualified).toEqual([]);
    playRange(tracker, 29.75, 60);
    expect(qualified).toEqual([
      {
        trackId: 'long',
        uploadedBy: 'artist',
        listenerId: 'listener',
        playedSeconds: 30,
        listenedAt: '2026-11-22T08:00:00.000Z',
      },
    ]);
  });

  it('a track shorter than 30 s counts when played whole', () => {
    const { tracker, qualified } = setup();
    tracker.begin(short);
    playRange(tracker, 0, 11.9);
    expect(qualified).toHaveLength(0);
    tracker.ended();
    expect(qualified).toHaveLength(1);
  });

  it('the audio length wins over the stored one', () => {
    const { tracker, qualified } = setup();
    tracker.begin(createTrack({ id: 'x', duration: 0 }));
    tracker.setDuration(8);
    playRange(tracker, 0, 8);
    expect(qualified).toHaveLength(1);
  });

  it('an unknown length falls back to 30 s', () => {
    const { tracker, qualified } = setup();
    tracker.begin(createTrack({ id: 'x', duration: 0 }));
    playRange(tracker, 0, 29);
    expect(qualified).toHaveLength(0);
    playRange(tracker, 29, 30);
    expect(qualified).toHaveLength(1);
  });

  it('seeking forward does not count', () => {
    const { tracker, qualified } = setup();
    tracker.begin(long);
    playRange(tracker, 0, 10);
    tracker.seeked(150);
    playRange(tracker, 150, 165);
    expect(tracker.playedSeconds).toBe(25);
    expect(qualified).toHaveLength(0);
  });

  it('a jump the engine did not announce is not listening either', () => {
    const { tracker, qualified } = setup();
    tracker.begin(long);
    tracker.progress(2);
    tracker.progress(100);
    expect(tracker.playedSeconds).toBe(2);
    expect(qualified).toHaveLength(0);
  });

  it('seeking back and listening again counts the replayed time (playing time, not distance)', () => {
    const { tracker, qualified } = setup();
    tracker.begin(long);
    playRange(tracker, 0, 20);
    tracker.seeked(0);
    playRange(tracker, 0, 10);
    expect(qualified).toHaveLength(1);
  });

  it('seeking to the end of a short track and ending does not count the skipped part', () => {
    const { tracker, qualified } = setup();
    tracker.begin(short);
    playRange(tracker, 0, 2);
    tracker.seeked(11);
    tracker.ended();
    expect(tracker.playedSeconds).toBe(3);
    expect(qualified).toHaveLength(0);
  });

  it('pauses add nothing: the position does not move', () => {
    const { tracker } = setup();
    tracker.begin(long);
    playRange(tracker, 0, 5);
    tracker.progress(5);
    tracker.progress(5);
    expect(tracker.playedSeconds).toBe(5);
  });

  it('a restored track counts from where it resumed', () => {
    const { tracker, qualified } = setup();
    tracker.begin(long, 120);
    playRange(tracker, 120, 149);
    expect(qualified).toHaveLength(0);
    playRange(tracker, 149, 150);
    expect(qualified).toHaveLength(1);
  });

  it('never counts for the uploader', () => {
    const { tracker, qualified } = setup('artist');
    tracker.begin(long);
    playRange(tracker, 0, 200);
    tracker.ended();
    expect(qualified).toHaveLength(0);
  });

  it('counts signed-out listens with a null listener (the data layer decides)', () => {
    const { tracker, qualified } = setup(null);
    tracker.begin(short);
    playRange(tracker, 0, 12);
    expect(qualified[0]?.listenerId).toBeNull();
  });

  it('once per track per session: replays and repeat one do not count again', () => {
    const { tracker, qualified } = setup();
    for (let i = 0; i < 3; i++) {
      tracker.begin(short);
      playRange(tracker, 0, 12);
      tracker.ended();
    }
    tracker.begin(long);
    playRange(tracker, 0, 31);
    expect(qualified.map((q) => q.trackId)).toEqual(['short', 'long']);
    expect(tracker.hasCounted('short')).toBe(true);
  });

  it('switching tracks restarts the count', () => {
    const { tracker, qualified } = setup();
    tracker.begin(long);
    playRange(tracker, 0, 20);
    tracker.begin(createTrack({ id: 'other', duration: 200 }));
    playRange(tracker, 0, 20);
    expect(qualified).toHaveLength(0);
  });

  it('without a track nothing happens', () => {
    const onQualified = vi.fn();
    const tracker = new ListenTracker({ currentUserId: () => 'u', onQualified });
    tracker.progress(1);
    tracker.ended();
    expect(onQualified).not.toHaveBeenCalled();
  });
});
