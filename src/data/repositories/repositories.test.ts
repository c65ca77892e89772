import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type SoundloftDb, type Track } from '../db';
import { testTrack } from '../db/test-track';
import { userQueue } from '../sync/outbox';
import { createRepositories, type Repositories } from './index';
import * as q from './queries';

const ME = 'user-a';
let db: SoundloftDb;
let repos: Repositories;
let signedIn: string | null;
let writes = 0;

const track = (id: string, over: Partial<Track> = {}): Track =>
  testTrack(id, {
    title: `T ${id}`,
    artist: 'Ann',
    album: null,
    genre: null,
    duration: 1,
    audioUrl: 'a',
    coverImage: null,
    uploadedBy: 'other',
    plays: 0,
    verified: false,
    createdAt: `2026-11-0${id.length}T00:00:00.000Z`,
    updatedAt: '',
    ...over,
  });

beforeEach(async () => {
  db = createDb(`repos-${crypto.randomUUID()}`);
  signedIn = ME;
  writes = 0;
  repos = createRepositories({ db, currentUserId: () => signedIn, onWrite: () => (writes += 1) });
  await db.tracks.bulkPut([track('a'), track('bb', { uploadedBy: ME }), track('ccc')]);
});
afterEach(() => db.delete());

const queued = async () => (await userQueue(db, ME).toArray()).map((e) => [e.op, e.payload]);

describe('reads', () => {
  it('lists tracks newest first, and by uploader', async () => {
    expect((await q.allTracks(db)).map((t) => t.id)).toEqual(['ccc', 'bb', 'a']);
    expect((await q.tracksByUploader(db, ME)).map((t) => t.id)).toEqual(['bb']);
  });
});

describe('likes', () => {
  it('toggles: liking a liked track removes the like; each write is queued', async () => {
    expect(await repos.likes.toggle('a')).toBe(true);
    expect(await q.likedTrackIds(db, ME)).toEqual(['a']);
    expect((await q.likedTracks(db, ME)).map((t) => t.id)).toEqual(['a']);
    expect(await queued()).toEqual([['like.add', { id: expect.any(String), track_id: 'a' }]]);
    expect(await repos.likes.toggle('a')).toBe(false);
    expect(await q.likedTrackIds(db, ME)).toEqual([]);
    expect(writes).toBe(2);
  });

  it('needs a session', async () => {
    signedIn = null;
    await expect(repos.likes.toggle('a')).rejects.toThrow('Auth session missing!');
  });
});

describe('playlists', () => {
  it('creates with a trimmed non-blank name and an optional description', async () => {
    await expect(repos.playlists.create('   ')).rejects.toThrow('Playlist name is required');
    const p = await repos.playlists.create('  Mix ', '');
    expect(p).toMatchObject({ name: 'Mix', description: '', createdBy: ME, trackIds: [] });
    expect((await q.playlistsOf(db, ME)).map((x) => x.id)).toEqual([p.id]);
  });

  it('adds a track once, removes and reorders, in the playlist order', async () => {
    const p = await repos.playlists.create('Mix');
    expect(await repos.playlists.addTrack(p.id, 'a')).toBe(true);
    expect(await repos.playlists.addTrack(p.id, 'a')).toBe(false);
    await repos.playlists.addTrack(p.id, 'ccc');
    await repos.playlists.reorder(p.id, ['ccc', 'a']);
    expect((await q.playlistTracks(db, p.id)).map((t) => t.id)).toEqual(['ccc', 'a']);
    await repos.playlists.removeTrack(p.id, 'ccc');
    expect((await q.playlistById(db, p.id))?.trackIds).toEqual(['a']);
    expect((await queued()).map(([op]) => op)).toEqual([
      'playlist.create',
      'playlist.add_track',
      'playlist.add_track',
      'playlist.reorder',
      'playlist.remove_track',
    ]);
  });

  it("refuses changes to someone else's playlist and unknown playlists", async () => {
    await db.playlists.put({
      id: 'p2',
      name: 'Theirs',
      description: '',
      coverImage: null,
      createdBy: 'other',
      trackIds: [],
      createdAt: '',
      updatedAt: '',
    });
    await expect(repos.playlists.addTrack('p2', 'a')).rejects.toThrow(
      'Failed to add track to playlist',
    );
    await expect(repos.playlists.delete('p2')).rejects.toThrow('Failed to delete playlist');
    await expect(repos.playlists.addTrack('nope', 'a')).rejects.toThrow('Playlist not found');
    expect(await queued()).toEqual([]);
  });
});

describe('follows', () => {
  it('toggles Follow / Following', async () => {
    expect(await repos.follows.toggle('u2')).toBe(true);
    expect(await q.followingIds(db, ME)).toEqual(['u2']);
    expect(await repos.follows.toggle('u2')).toBe(false);
    expect(await q.followingIds(db, ME)).toEqual([]);
  });
});

describe('lyrics', () => {
  it('drops blank lines, trims, sorts by time, non-finite times become 0', async () => {
    const saved = await repos.lyrics.save('bb', [
      { text: ' b ', timestamp: 5 },
      { text: '   ', timestamp: 1 },
      { text: 'a', timestamp: Number.NaN },
      { text: 'c', timestamp: Infinity },
    ]);
    expect(saved.lines.map((l) => [l.text, l.timestamp])).toEqual([
      ['a', 0],
      ['c', 0],
      ['b', 5],
    ]);
    expect(await q.lyricsOf(db, 'bb')).toMatchObject({ trackId: 'bb', isSynced: true });
  });

  it('needs one line, a track id, and the uploader', async () => {
    await expect(repos.lyrics.save('bb', [{ text: ' ' }])).rejects.toThrow(
      'Add at least one lyric line before saving.',
    );
    await expect(repos.lyrics.save('', [{ text: 'x' }])).rejects.toThrow(
      'Track ID is required to save lyrics',
    );
    await expect(repos.lyrics.save('a', [{ text: 'x' }])).rejects.toThrow('Failed to save lyrics');
  });
});

describe('profile', () => {
  it('queues only the changed fields', async () => {
    await db.profiles.put({
      id: ME,
      name: 'Me',
      avatar: null,
      bio: 'hi',
      socialLinks: {},
      featuredTrack: null,
      featuredPlaylist: null,
      subscriptionPlan: 'free',
      monthlyUploads: 0,
      monthlyUploadsMonth: '2026-11-01',
      followers: 0,
      createdAt: '',
      updatedAt: '',
    });
    expect(await repos.profile.update({ name: 'Me', bio: 'hello' })).toEqual(['bio']);
    expect(await repos.profile.update({ bio: 'hello' })).toEqual([]);
    expect(await queued()).toEqual([['profile.update', { bio: 'hello' }]]);
    await expect(repos.profile.update({ name: ' ' })).rejects.toThrow('Display name is required');
    signedIn = null;
    await expect(repos.profile.update({ bio: 'x' })).rejects.toThrow('Not authenticated');
  });
});

describe('listening history', () => {
  it('records a listen once per track per session, never for the uploader', async () => {
    expect(await repos.history.recordListen('a')).toBe(true);
    expect(await repos.history.recordListen('a')).toBe(false);
    expect(await repos.history.recordListen('bb')).toBe(false);
    const entries = await queued();
    expect(entries).toHaveLength(1);
    expect(entries[0]![0]).toBe('play.record');
  });

  it('a listen played from the downloads cache is an offline play with its device', async () => {
    expect(await repos.history.recordListen('a', { deviceId: 'dev-1' })).toBe(true);
    const [entry] = await queued();
    expect(entry![0]).toBe('play.offline');
    expect(entry![1]).toMatchObject({ track_id: 'a', device_id: 'dev-1' });
    expect(Date.parse(String((entry![1] as { played_at: string }).played_at))).not.toBeNaN();
  });
});
