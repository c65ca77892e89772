// @vitest-environment node
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { expect, it } from 'vitest';
import { toLyricLines, toTrack } from './mapping';
import { createDb, dbHealthStore, isQuotaError } from './open';
import { PROCESSED_TRACK_COLUMNS } from './test-track';

it('maps server rows to the app models (coverImage, uploadedBy, createdAt)', () => {
  const track = toTrack({
    id: 't',
    title: 'T',
    artist: 'A',
    album: null,
    genre: null,
    duration: 61,
    audio_url: 'u/a.mp3',
    cover_image: null,
    uploaded_by: 'u',
    plays: 3,
    verified: false,
    created_at: '2026-11-22T07:00:00.123456+00:00',
    updated_at: '2026-11-22T07:00:00+00:00',
    ...PROCESSED_TRACK_COLUMNS,
  });
  expect(track).toMatchObject({ coverImage: null, uploadedBy: 'u', album: null, plays: 3 });
  expect(track.createdAt).toBe('2026-11-22T07:00:00.123Z');
  expect(
    toLyricLines([{ text: 'a', timestamp: 'x' }, 'junk', { id: 'l2', text: 'b', timestamp: 2 }]),
  ).toEqual([
    { id: 'line-0', text: 'a', timestamp: 0 },
    { id: 'l2', text: 'b', timestamp: 2 },
  ]);
});

it('closes and asks for a reload when another tab opens a newer schema', async () => {
  const name = `vc-${crypto.randomUUID()}`;
  const db = createDb(name);
  await db.open();
  await db.tracks.put(
    toTrack({
      id: 't',
      title: 'T',
      artist: 'A',
      album: null,
      genre: null,
      duration: 1,
      audio_url: 'a',
      cover_image: null,
      uploaded_by: 'u',
      plays: 0,
      verified: false,
      created_at: '',
      updated_at: '',
      ...PROCESSED_TRACK_COLUMNS,
    }),
  );
  const newer = new Dexie(name);
  newer.version(2).stores({ tracks: 'id, createdAt, uploadedBy, artist, album, genre, title' });
  await newer.open();
  expect(dbHealthStore.getSnapshot().needsReload).toBe(true);
  expect(db.isOpen()).toBe(false);
  expect(await newer.table('tracks').count()).toBe(1); // the upgrade kept the data
  newer.close();
});

it('recognises quota errors, also wrapped', () => {
  expect(isQuotaError({ name: 'AbortError', inner: { name: 'QuotaExceededError' } })).toBe(true);
  expect(isQuotaError(new Error('x'))).toBe(false);
});
