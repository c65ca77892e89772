// @vitest-environment node
/**
 * Downloaded collections follow their tracks with nothing on screen: the real download manager
 * and the collection keeper on Dexie (fake-indexeddb) and undici's Cache Storage. The mirror is
 * changed as a sync pull changes it (rows put and deleted in Dexie). The manager is not started,
 * so its queue rows are the whole outcome (what is queued, what is released): the files' own
 * transfer is download-manager.test.ts.
 */
import 'fake-indexeddb/auto';
import { caches } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type Playlist, type SoundloftDb } from '../db';
import { testTrack } from '../db/test-track';
import { collectionKey, keepCollectionsInSync, recorded } from './collection-sync';
import { DownloadManager } from './download-manager';

let db: SoundloftDb;
let m: DownloadManager;
const stops: (() => void)[] = [];

const playlist = (trackIds: string[], createdBy = 'u1'): Playlist => ({
  id: 'p1',
  name: 'Road Trip',
  description: '',
  coverImage: null,
  createdBy,
  trackIds,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const like = (trackId: string, createdAt = '2026-01-01T00:00:00.000Z') => ({
  userId: 'u1',
  trackId,
  id: `like-${trackId}`,
  createdAt,
});

beforeEach(async () => {
  db = createDb(`collections-${crypto.randomUUID()}`);
  await db.tracks.bulkPut(['a', 'b', 'c', 'd'].map((id) => testTrack(id)));
  m = new DownloadManager({
    db,
    userId: 'u1',
    sign: () => Promise.reject(new Error('not in this test')),
    caches: caches as unknown as CacheStorage,
    origin: 'https://soundloft.test',
  });
});

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  db.close();
});

/** What the download manager holds: track → its sources. */
async function held(): Promise<Record<string, string[]>> {
  const rows = await db.downloads.where('userId').equals('u1').toArray();
  return Object.fromEntries(rows.map((d) => [d.trackId, [...d.sources].sort()]));
}

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition never held');
}

const holds = async (expected: Record<string, string[]>) => {
  await until(async () => JSON.stringify(await held()) === JSON.stringify(expected));
  expect(await held()).toEqual(expected);
};

/** As downloadCollection leaves it: the tracks queued and the collection recorded. */
async function downloaded(source: string, trackIds: string[]) {
  await m.enqueue(trackIds, source);
  await db.meta.put({ key: collectionKey('u1', source), value: recorded(trackIds) });
}

function keep() {
  stops.push(keepCollectionsInSync(db, m, (error) => expect.fail(String(error))));
}

describe('downloaded collections stay in sync off screen', () => {
  it('a playlist: tracks added later are queued, removed ones released', async () => {
    await db.playlists.put(playlist(['a', 'b']));
    await downloaded('playlist:p1', ['a', 'b']);
    await m.enqueue(['b'], 'liked');
    keep();
    // A pull brings the playlist as edited on another device: c added, b removed.
    await db.playlists.put(playlist(['a', 'c']));
    await holds({ a: ['playlist:p1'], b: ['liked'], c: ['playlist:p1'] });
    await db.playlists.put(playlist(['c']));
    await holds({ b: ['liked'], c: ['playlist:p1'] });
    expect((await db.meta.get(collectionKey('u1', 'playlist:p1')))?.value).toEqual({
      trackIds: ['c'],
    });
  });

  it('Liked Songs: a new like is queued, an unlike released', async () => {
    await db.likes.bulkPut([like('a'), like('b')]);
    await downloaded('liked', ['b', 'a']);
    keep();
    await db.likes.put(like('d', '2026-02-01T00:00:00.000Z'));
    await holds({ a: ['liked'], b: ['liked'], d: ['liked'] });
    await db.likes.delete(['u1', 'a']);
    await holds({ b: ['liked'], d: ['liked'] });
  });

  it('a deleted playlist releases its tracks and is forgotten', async () => {
    await db.playlists.put(playlist(['a', 'b']));
    await downloaded('playlist:p1', ['a', 'b']);
    await m.enqueue(['a'], 'track');
    keep();
    await db.playlists.delete('p1');
    await holds({ a: ['track'] });
    await until(async () => (await db.meta.get(collectionKey('u1', 'playlist:p1'))) === undefined);
  });

  it('changes made while the app was closed are caught up at start', async () => {
    await db.playlists.put(playlist(['a', 'b']));
    await downloaded('playlist:p1', ['a', 'b']);
    // Meanwhile (no keeper running) a pull changed the playlist.
    await db.playlists.put(playlist(['b', 'c', 'd']));
    expect(await held()).toEqual({ a: ['playlist:p1'], b: ['playlist:p1'] });
    keep();
    await holds({ b: ['playlist:p1'], c: ['playlist:p1'], d: ['playlist:p1'] });
  });

  it('a track removed from the downloads by hand is not downloaded again', async () => {
    await db.playlists.put(playlist(['a', 'b']));
    await downloaded('playlist:p1', ['a', 'b']);
    keep();
    await m.remove('a');
    await db.playlists.put(playlist(['a', 'b', 'c']));
    await holds({ b: ['playlist:p1'], c: ['playlist:p1'] });
  });

  it('a collection recorded before its track list (true) is kept in sync too', async () => {
    await db.playlists.put(playlist(['a', 'b']));
    await m.enqueue(['a', 'b'], 'playlist:p1');
    await db.meta.put({ key: collectionKey('u1', 'playlist:p1'), value: true });
    keep();
    await db.playlists.put(playlist(['b', 'c']));
    await holds({ b: ['playlist:p1'], c: ['playlist:p1'] });
  });

  it("another listener's collections are not touched", async () => {
    await db.playlists.put(playlist(['a', 'b']));
    await downloaded('playlist:p1', ['a']);
    const theirs = new DownloadManager({
      db,
      userId: 'u2',
      sign: () => Promise.reject(new Error('not in this test')),
      caches: caches as unknown as CacheStorage,
      origin: 'https://soundloft.test',
    });
    await theirs.enqueue(['a'], 'playlist:p1');
    await db.meta.put({ key: collectionKey('u2', 'playlist:p1'), value: recorded(['a']) });
    keep();
    await db.playlists.put(playlist(['c']));
    await holds({ c: ['playlist:p1'] });
    expect((await db.downloads.get(['u2', 'a']))?.sources).toEqual(['playlist:p1']);
  });
});
