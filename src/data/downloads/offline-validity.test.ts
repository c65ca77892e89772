/**
 * The 30-day rule (docs/offline.md, "Rights"): downloads play from the cache only while the last
 * plan check online is less than 30 days old. The app's Dexie (fake-indexeddb) holds the rows
 * and the time of the check; the service worker that would answer the URL is the only stand-in
 * (jsdom has none).
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../db';
import { offlineAudioPath } from '@/lib/offline-audio';
import { OFFLINE_CHECK_DAYS, downloadedSource, downloadsPlayable } from './app-downloads';
import { watchPlayableDownloads } from './playable-downloads';

const DAY = 24 * 60 * 60 * 1000;
const checkedAt = (msAgo: number) =>
  getDb().meta.put({
    key: 'downloads:checked:u1',
    value: new Date(Date.now() - msAgo).toISOString(),
  });

beforeAll(() => {
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { controller: {} },
  });
});

afterAll(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

beforeEach(async () => {
  const db = getDb();
  await db.meta.clear();
  await db.downloads.clear();
  await db.downloads.put({
    userId: 'u1',
    trackId: 't1',
    state: 'done',
    receivedBytes: 10,
    totalBytes: 10,
    quality: 'high',
    error: null,
    queuedAt: '2026-11-01T00:00:00.000Z',
    completedAt: '2026-11-01T00:00:01.000Z',
    sources: ['track'],
  });
});

it('is 30 days', () => expect(OFFLINE_CHECK_DAYS).toBe(30));

it('a download checked within 30 days plays from the cache', async () => {
  await checkedAt(29 * DAY);
  expect(await downloadsPlayable('u1')).toBe(true);
  expect(await downloadedSource('u1', 't1')).toBe(offlineAudioPath('u1', 't1'));
});

it('a download whose last check is older than 30 days is not playable offline', async () => {
  await checkedAt(30 * DAY + 60_000);
  expect(await downloadsPlayable('u1')).toBe(false);
  expect(await downloadedSource('u1', 't1')).toBeNull();
  // The next check online renews it (recorded as now).
  await checkedAt(0);
  expect(await downloadedSource('u1', 't1')).toBe(offlineAudioPath('u1', 't1'));
});

it('never checked, another listener, or not finished: not playable', async () => {
  expect(await downloadedSource('u1', 't1')).toBeNull();
  await checkedAt(DAY);
  expect(await downloadedSource('u2', 't1')).toBeNull();
  await getDb().downloads.update(['u1', 't1'], { state: 'downloading' });
  expect(await downloadedSource('u1', 't1')).toBeNull();
});

describe('from memory (the click)', () => {
  async function until(check: () => boolean) {
    for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  }

  it('answers as Dexie does, and follows the rows and the checks live', async () => {
    const view = watchPlayableDownloads(getDb(), 'u1');
    try {
      await until(() => view.source('t1') !== undefined);
      expect(view.source('t1')).toBeNull(); // never checked
      await checkedAt(29 * DAY);
      await until(() => view.source('t1') === offlineAudioPath('u1', 't1'));
      // 30 days later without a check: not playable.
      expect(view.source('t1', Date.now() + 2 * DAY)).toBeNull();
      await checkedAt(30 * DAY + 60_000);
      await until(() => view.source('t1') === null);
      await checkedAt(0);
      await until(() => view.source('t1') !== null);
      // Removed, or another track: nothing to play from the cache.
      expect(view.source('t2')).toBeNull();
      await getDb().downloads.delete(['u1', 't1']);
      await until(() => view.source('t1') === null);
    } finally {
      view.stop();
    }
  });
});
