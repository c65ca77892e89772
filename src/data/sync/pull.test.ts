import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type SoundloftDb } from '../db';
import { PROCESSED_TRACK_COLUMNS } from '../db/test-track';
import { createRepositories } from '../repositories';
import { allTracks, likedTrackIds, playlistsOf } from '../repositories/queries';
import { RemoteError } from './errors';
import { pullAll, readCheckpoint } from './pull';
import { createFakeRemote, serverTime, type FakeRemote } from '../../test/fake-sync-remote';

const ME = 'user-a';
let db: SoundloftDb;
let remote: FakeRemote;

const trackRow = (id: string) => {
  const at = serverTime();
  return {
    id,
    title: id,
    artist: 'Ann',
    album: null,
    genre: null,
    duration: 1,
    audio_url: 'a',
    cover_image: null,
    uploaded_by: 'u9',
    plays: 0,
    verified: false,
    created_at: at,
    updated_at: at,
    ...PROCESSED_TRACK_COLUMNS,
  };
};
const likeRow = (trackId: string) => ({
  id: crypto.randomUUID(),
  user_id: ME,
  track_id: trackId,
  created_at: serverTime(),
});
const playlistRow = (id: string, name: string) => {
  const at = serverTime();
  return {
    id,
    name,
    description: '',
    cover_image: null,
    created_by: ME,
    track_ids: [],
    created_at: at,
    updated_at: at,
  };
};
const tombstone = (table: string, key: string) => ({
  id: String(Math.random()),
  table_name: table,
  row_key: key,
  deleted_at: serverTime(),
});

beforeEach(() => {
  db = createDb(`pull-${crypto.randomUUID()}`);
  remote = createFakeRemote(ME);
  remote.tables = { tracks: [trackRow('t1'), trackRow('t2')], liked_tracks: [likeRow('t1')] };
});
afterEach(() => db.delete());

const deps = () => ({ db, remote, userId: ME, overlapMs: 0 });

describe('pull', () => {
  it('loads everything first, then replaces what the server no longer has on a full load', async () => {
    await db.tracks.put({ ...(await import('../db')).toTrack(trackRow('stale')) });
    await pullAll(deps());
    expect((await allTracks(db)).map((t) => t.id).sort()).toEqual(['t1', 't2']);
    expect(await likedTrackIds(db, ME)).toEqual(['t1']);
    expect(await readCheckpoint(db, ME, 'tracks')).toMatchObject({ id: 't2' });
  });

  it('then pulls changes and tombstones since the checkpoint', async () => {
    await pullAll(deps());
    remote.tables.tracks!.push(trackRow('t3'));
    remote.tables.tracks = remote.tables.tracks!.filter((t) => t.id !== 't1');
    remote.tables.liked_tracks = [];
    remote.tables.sync_deletions = [
      tombstone('tracks', 't1'),
      tombstone('liked_tracks', `${ME}:t1`),
    ];
    await pullAll(deps());
    expect((await allTracks(db)).map((t) => t.id).sort()).toEqual(['t2', 't3']);
    expect(await likedTrackIds(db, ME)).toEqual([]);
  });

  it('a row fetched in the same pull wins over its tombstone (deleted, then re-created)', async () => {
    await pullAll(deps());
    remote.tables.sync_deletions = [tombstone('liked_tracks', `${ME}:t2`)];
    remote.tables.liked_tracks!.push(likeRow('t2'));
    await pullAll(deps());
    expect((await likedTrackIds(db, ME)).sort()).toEqual(['t1', 't2']);
  });

  it('keeps rows with queued local writes on top of the server version', async () => {
    await pullAll(deps());
    const repos = createRepositories({ db, currentUserId: () => ME });
    await repos.likes.toggle('t1'); // unlike, queued
    const p = await repos.playlists.create('Local');
    remote.tables.playlists = [playlistRow('p-server', 'Server')];
    await pullAll(deps());
    expect(await likedTrackIds(db, ME)).toEqual([]);
    expect((await playlistsOf(db, ME)).map((x) => x.id).sort()).toEqual([p.id, 'p-server'].sort());
  });

  it('re-reads a row it skipped for a queued write once that write is cancelled', async () => {
    await pullAll(deps());
    const repos = createRepositories({ db, currentUserId: () => ME });
    await repos.likes.toggle('t2'); // queued like.add
    remote.tables.liked_tracks!.push(likeRow('t2'), likeRow('t1b')); // the other device's likes
    await pullAll(deps()); // skips t2 (queued), checkpoint moves past it
    await repos.likes.toggle('t2'); // unlike: cancels the queued like.add, nothing to send
    expect(await likedTrackIds(db, ME)).not.toContain('t2');
    await pullAll(deps());
    expect(await likedTrackIds(db, ME)).toContain('t2'); // the server's truth
  });

  it('a failed read leaves the mirror as it was', async () => {
    await pullAll(deps());
    remote.select = () =>
      Promise.reject(new RemoteError({ status: 0, code: '', message: 'offline' }));
    await expect(pullAll(deps())).rejects.toThrow('offline');
    expect((await allTracks(db)).length).toBe(2);
  });
});
