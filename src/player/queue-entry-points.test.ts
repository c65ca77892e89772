// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  INITIAL_QUEUE_STATE,
  clickTrack,
  playFromTrackPage,
  playPlaylist,
  playlistStart,
  randomOther,
  relatedTracks,
  upcomingTrack,
  type QueueState,
} from './queue';
import { a, abc, b, c, d, startedOn, stateWith } from './queue-test-fixtures';
import { createTrack } from './test-tracks';

describe('clickTrack', () => {
  it.each([
    [true, false],
    [false, true],
  ])('clicking the current track (playing=%s) toggles to playing=%s', (from, to) => {
    const result = clickTrack(stateWith({ isPlaying: from, queue: [a] }), abc, a);
    expect(result.isPlaying).toBe(to);
    expect(result.currentTime).toBe(42);
    expect(result.queue).toEqual([a]);
  });

  it('clicking another track sets the queue to the list and plays it', () => {
    const result = clickTrack(stateWith({ queue: [d] }), abc, c);
    expect(result).toMatchObject({ ...startedOn(c), queue: abc });
  });

  it('from an empty player', () => {
    expect(clickTrack(INITIAL_QUEUE_STATE, abc, b)).toMatchObject({ ...startedOn(b), queue: abc });
  });

  it('an empty list still queues the clicked track', () => {
    expect(clickTrack(INITIAL_QUEUE_STATE, [], b).queue).toEqual([b]);
  });

  it('copies the list, so a later change of the caller array does not leak in', () => {
    const list = [a, b];
    const result = clickTrack(INITIAL_QUEUE_STATE, list, a);
    list.push(c);
    expect(result.queue).toEqual([a, b]);
  });
});

describe('relatedTracks', () => {
  const seed = createTrack({ id: 's', artist: 'Nova', album: 'Tides' });
  const sameArtist = (id: string) => createTrack({ id, artist: 'Nova', album: 'Other' });
  const sameAlbum = (id: string) => createTrack({ id, artist: 'Guest', album: 'Tides' });
  const unrelated = (id: string) => createTrack({ id, artist: 'Else', album: 'Elsewhere' });

  it('keeps same artist or same album, excluding the track itself, in catalogue order', () => {
    const catalogue = [unrelated('u1'), seed, sameAlbum('al1'), sameArtist('ar1'), unrelated('u2')];
    expect(relatedTracks(seed, catalogue).map((t) => t.id)).toEqual(['al1', 'ar1']);
  });

  it('caps at 5', () => {
    const catalogue = ['1', '2', '3', '4', '5', '6', '7'].map(sameArtist);
    expect(relatedTracks(seed, catalogue).map((t) => t.id)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('singles do not relate through a missing album', () => {
    const single = createTrack({ id: 'x', artist: 'Solo', album: null });
    const otherSingle = createTrack({ id: 'y', artist: 'Duo', album: null });
    const emptyAlbum = createTrack({ id: 'z', artist: 'Trio', album: '' });
    expect(relatedTracks(single, [otherSingle, emptyAlbum])).toEqual([]);
  });

  it('skips duplicates of one track in the catalogue', () => {
    const dup = sameArtist('dup');
    expect(relatedTracks(seed, [dup, dup, seed]).map((t) => t.id)).toEqual(['dup']);
  });

  it('an empty catalogue gives nothing', () => {
    expect(relatedTracks(seed, [])).toEqual([]);
  });
});

describe('playFromTrackPage', () => {
  const seed = createTrack({ id: 's', artist: 'Nova', album: 'Tides' });
  const catalogue = [
    seed,
    ...['1', '2', '3', '4', '5', '6'].map((id) => createTrack({ id, artist: 'Nova' })),
    createTrack({ id: 'u', artist: 'Else' }),
  ];

  it('plays the track with a queue of it plus up to 5 related tracks', () => {
    const result = playFromTrackPage(stateWith({}), seed, catalogue);
    expect(result).toMatchObject(startedOn(seed));
    expect(result.queue.map((t) => t.id)).toEqual(['s', '1', '2', '3', '4', '5']);
  });

  it('with nothing related, the queue is the track alone', () => {
    const lone = createTrack({ id: 'lone', artist: 'Nobody' });
    expect(playFromTrackPage(INITIAL_QUEUE_STATE, lone, catalogue).queue).toEqual([lone]);
  });

  it.each([
    [true, false],
    [false, true],
  ])(
    'when already current (playing=%s) it toggles to playing=%s and keeps the queue',
    (from, to) => {
      const start = stateWith({ currentTrack: seed, queue: abc, isPlaying: from });
      const result = playFromTrackPage(start, seed, catalogue);
      expect(result).toMatchObject({ isPlaying: to, currentTime: 42, queue: abc });
    },
  );
});

describe('playPlaylist', () => {
  it('starts at the first track with the playlist as the queue', () => {
    const result = playPlaylist(stateWith({ currentTrack: d, queue: [d] }), abc);
    expect(result).toMatchObject({ ...startedOn(a), queue: abc });
  });

  it('pauses when the current track belongs to it', () => {
    const result = playPlaylist(stateWith({ currentTrack: b, isPlaying: true, queue: [b] }), abc);
    expect(result).toMatchObject({ currentTrack: b, isPlaying: false, currentTime: 42 });
  });

  it('resumes where it was when its track is current but paused', () => {
    const result = playPlaylist(stateWith({ currentTrack: c, isPlaying: false }), abc);
    expect(result).toMatchObject({ currentTrack: c, isPlaying: true, currentTime: 42 });
  });

  it('an empty playlist does nothing', () => {
    const start = stateWith({});
    expect(playPlaylist(start, [])).toBe(start);
    expect(playPlaylist(INITIAL_QUEUE_STATE, [])).toBe(INITIAL_QUEUE_STATE);
  });
});

describe('playlistStart (what the Play press loads)', () => {
  it('is the track playPlaylist starts: the first, with shuffle on or off', () => {
    for (const shuffle of [false, true]) {
      const state = stateWith({ currentTrack: d, queue: [d], shuffle });
      expect(playlistStart(state, abc)).toBe(a);
      expect(playPlaylist(state, abc).currentTrack).toBe(a);
    }
    expect(playlistStart(INITIAL_QUEUE_STATE, abc)).toBe(a);
  });

  it('none while a track of the playlist is current (playing or paused), none when empty', () => {
    for (const isPlaying of [true, false])
      expect(playlistStart(stateWith({ currentTrack: c, isPlaying }), abc)).toBeNull();
    expect(playlistStart(INITIAL_QUEUE_STATE, [])).toBeNull();
  });
});

describe('randomOther and upcomingTrack', () => {
  it('randomOther is null when the queue holds only the current track', () => {
    expect(randomOther(stateWith({ queue: [a, a] }), () => 0)).toBeNull();
  });

  it.each<[string, Partial<QueueState>, string | null]>([
    ['the following item', { currentTrack: a }, 'b'],
    ['nothing at the end without repeat all', { currentTrack: c }, null],
    ['the first at the end with repeat all', { currentTrack: c, repeat: 'all' }, 'a'],
    ['nothing with shuffle (it is random)', { shuffle: true }, null],
    ['nothing without a track', { currentTrack: null }, null],
    ['nothing with an empty queue', { queue: [] }, null],
  ])('upcomingTrack: %s', (_name, given, id) => {
    expect(upcomingTrack(stateWith(given))?.id ?? null).toBe(id);
  });
});
