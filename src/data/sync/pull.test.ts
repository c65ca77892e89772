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

/** Every write the database receives from now on: table and mutation, with its transaction. */
function recordWrites(target: SoundloftDb) {
  const writes: { table: string; type: string; count: number; trans: object }[] = [];
  target.use({
    stack: 'dbcore',
    name: 'record-writes',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        return {
          ...table,
          mutate: (req) => {
            const count = 'values' in req ? req.values.length : 'keys' in req ? req.keys.length : 0;
            writes.push({ table: name, type: req.type, count, trans: req.trans });
            return table.mutate(req);
          },
        };
      },
    }),
  });
  return writes;
}

const summary = (writes: ReturnType<typeof recordWrites>) =>
  writes.map(({ table, type, count }) => ({ table, type, count }));

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

  it('a pull that finds nothing new writes nothing (no live query wakes)', async () => {
    const writes = recordWrites(db);
    remote.tables.profiles = [{ id: ME, name: 'Me', social_links: {}, created_at: serverTime() }];
    remote.tables.listening_history = [
      { id: 'h1', user_id: ME, track_id: 't1', listened_at: serverTime() },
    ];
    remote.tables.playlists = [playlistRow('p1', 'Mine')];
    remote.tables.sync_deletions = [tombstone('tracks', 'long-gone')];
    // The overlap window covers every row: each pull reads them all again.
    const again = { ...deps(), overlapMs: 3_600_000 };
    await pullAll(again);
    await pullAll(again); // the first incremental pull: the tombstone moves the checkpoint
    expect(writes.length).toBeGreaterThan(0);
    writes.length = 0;
    await pullAll(again);
    expect(summary(writes)).toEqual([]);

    // A changed row is written, alone, with its table's checkpoint.
    const t1 = remote.tables.tracks!.find((t) => t.id === 't1')!;
    Object.assign(t1, { title: 'Renamed', updated_at: serverTime() });
    await pullAll(again);
    expect(summary(writes)).toEqual([
      { table: 'tracks', type: 'put', count: 1 },
      { table: 'meta', type: 'put', count: 1 },
    ]);
    expect((await allTracks(db)).find((t) => t.id === 't1')?.title).toBe('Renamed');
    expect(await readCheckpoint(db, ME, 'tracks')).toMatchObject({ id: 't1' });
  });

  it('merges every table in one transaction', async () => {
    const writes = recordWrites(db);
    remote.tables.playlists = [playlistRow('p1', 'Mine')];
    await pullAll(deps());
    const merged = writes.filter((w) => ['tracks', 'likes', 'playlists'].includes(w.table));
    expect(new Set(merged.map((w) => w.table))).toEqual(new Set(['tracks', 'likes', 'playlists']));
    expect(new Set(merged.map((w) => w.trans)).size).toBe(1);
  });
});
