// @vitest-environment node
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { expect, it } from 'vitest';
import { SoundloftDb } from './schema';

it('version 2: mirrored tracks become ready, and the tracks checkpoints go (full reload)', async () => {
  const name = `upgrade-${crypto.randomUUID()}`;
  const v1 = new Dexie(name);
  v1.version(1).stores({
    tracks: 'id, createdAt, uploadedBy, artist, album, genre, [uploadedBy+createdAt]',
    meta: 'key',
  });
  await v1.table('tracks').put({ id: 't1', title: 'Old', createdAt: '2026-01-01' });
  await v1.table('meta').bulkPut([
    { key: 'checkpoint:u1:tracks', value: { at: '2026-01-01', id: 't1' } },
    { key: 'checkpoint:u1:likes', value: { at: '2026-01-01', id: 'l1' } },
  ]);
  v1.close();

  const db = new SoundloftDb(name);
  expect(await db.tracks.get('t1')).toMatchObject({
    title: 'Old',
    status: 'ready',
    qualities: [],
    loudnessLufs: null,
  });
  expect(await db.meta.get('checkpoint:u1:tracks')).toBeUndefined();
  expect(await db.meta.get('checkpoint:u1:likes')).toBeDefined();
  db.close();
});
