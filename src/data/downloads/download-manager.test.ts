// @vitest-environment jsdom
/**
 * The download manager against a real HTTP server (node:http on loopback), a real Cache Storage
 * (undici's, with undici's fetch and Response so the cache accepts what it stores) and Dexie on
 * fake-indexeddb. Two stand-ins only: the signer (the storage server's signing is tested in
 * audio-remote and the storage suites) and, in the quota test, a cache whose put fails as a
 * full disk does (a disk cannot be filled here).
 */
import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { caches, fetch as undiciFetch, Response as UndiciResponse } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type SoundloftDb } from '../db';
import { DOWNLOADS_CACHE } from '@/lib/offline-audio';
import {
  DOWNLOAD_FAILED_MESSAGE,
  DownloadManager,
  QUOTA_MESSAGE,
  type DownloadManagerDeps,
} from './download-manager';

const SIZE = 64 * 1024;
const fileOf = (trackId: string) =>
  Uint8Array.from({ length: SIZE }, (_, i) => (i + trackId.charCodeAt(0)) % 256);

/** Tracks whose body is sent slowly (4 KiB every 20 ms) until released, or cut off. */
const slow = new Set<string>();
/** Tracks whose connection drops once half the file is sent, on every request. */
const drop = new Set<string>();
/** Tracks whose first response drops after this many bytes of the file (a one-off). */
const dropOnceAt = new Map<string, number>();
/** Tracks whose drop takes the device offline first (the network went, not the server). */
const goOffline = new Set<string>();
/** Tracks whose server ignores Range (answers 200 with the whole file). */
const noRanges = new Set<string>();
/** Tracks whose file changed on the server: another ETag (If-Range then gets the whole file). */
const changed = new Set<string>();
let server: Server;
let base: string;
const requests: string[] = [];
/** The Range header of each request ('' without one), in order. */
const ranges: string[] = [];

const etagOf = (trackId: string) => `"${trackId}-${changed.has(trackId) ? 2 : 1}"`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const trackId = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
    requests.push(trackId);
    const range = req.headers.range ?? '';
    ranges.push(range);
    const body = fileOf(trackId);
    const ifRange = req.headers['if-range'];
    const from = /^bytes=(\d+)-$/.exec(range);
    const partial =
      from !== null && !noRanges.has(trackId) && (!ifRange || ifRange === etagOf(trackId));
    let offset = partial ? Number(from[1]) : 0;
    const headers = {
      'Content-Type': 'audio/mpeg',
      'Content-Length': String(SIZE - offset),
      ETag: etagOf(trackId),
      'Accept-Ranges': 'bytes',
      ...(partial ? { 'Content-Range': `bytes ${offset}-${SIZE - 1}/${SIZE}` } : {}),
    };
    res.writeHead(partial ? 206 : 200, headers);
    const cutAt = dropOnceAt.get(trackId);
    dropOnceAt.delete(trackId);
    if (!slow.has(trackId) && !drop.has(trackId) && cutAt === undefined) {
      res.end(body.subarray(offset));
      return;
    }
    const timer = setInterval(() => {
      if ((drop.has(trackId) && offset >= SIZE / 2) || (cutAt !== undefined && offset >= cutAt)) {
        clearInterval(timer);
        if (goOffline.has(trackId)) online = false;
        res.destroy();
        return;
      }
      if (!slow.has(trackId) && !drop.has(trackId) && cutAt === undefined) {
        clearInterval(timer);
        res.end(body.subarray(offset));
        return;
      }
      res.write(body.subarray(offset, offset + 4096));
      offset += 4096;
      if (offset >= SIZE) {
        clearInterval(timer);
        res.end();
      }
    }, 20);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The manager stores `new Response(new Blob(...))`: undici's Response and Node's Blob, as the
  // cache it writes to understands (jsdom's Blob is another realm's).
  (globalThis as { Response: unknown }).Response = UndiciResponse;
  (globalThis as { Blob: unknown }).Blob = NodeBlob;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let db: SoundloftDb;
let online = true;
const managers: DownloadManager[] = [];

beforeEach(async () => {
  db = createDb(`downloads-${crypto.randomUUID()}`);
  online = true;
  slow.clear();
  drop.clear();
  dropOnceAt.clear();
  noRanges.clear();
  changed.clear();
  goOffline.clear();
  requests.length = 0;
  ranges.length = 0;
  await caches.delete(DOWNLOADS_CACHE);
});

afterEach(async () => {
  for (const m of managers.splice(0)) await m.stop();
  db.close();
});

function manager(overrides: Partial<DownloadManagerDeps> = {}) {
  const m = new DownloadManager({
    db,
    userId: 'u1',
    sign: (trackId) => Promise.resolve({ url: `${base}/${trackId}`, quality: 'high' }),
    fetch: undiciFetch as unknown as typeof fetch,
    caches: caches as unknown as CacheStorage,
    isOnline: () => online,
    origin: 'https://soundloft.test',
    progressEveryMs: 0,
    partBytes: 8192,
    retries: 2,
    retryDelayMs: 10,
    ...overrides,
  });
  managers.push(m);
  return m;
}

async function stored(m: DownloadManager, trackId: string) {
  const cache = await caches.open(DOWNLOADS_CACHE);
  const hit = await cache.match(m.keyOf(trackId));
  return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
}

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition never held');
}

const row = (trackId: string, userId = 'u1') => db.downloads.get([userId, trackId]);

/** The kept parts of unfinished files in the cache. */
async function partKeys() {
  const cache = await caches.open(DOWNLOADS_CACHE);
  return (await cache.keys()).map((r) => r.url).filter((u) => u.includes('/offline-audio-part/'));
}

/** The first byte a Range request asked for, per request (null: the whole file). */
const rangeStarts = () => ranges.map((r) => (r ? Number(/bytes=(\d+)-/.exec(r)?.[1]) : null));

describe('DownloadManager', () => {
  it('downloads a queue in order into the downloads cache, with its progress', async () => {
    const m = manager();
    await m.start();
    slow.add('a');
    await m.enqueue(['a', 'b', 'c'], 'playlist:p1');
    await until(async () => ((await row('a'))?.receivedBytes ?? 0) > 0);
    const during = await row('a');
    expect(during).toMatchObject({ state: 'downloading', totalBytes: SIZE });
    expect(during?.receivedBytes).toBeLessThan(SIZE);
    expect((await row('b'))?.state).toBe('queued');
    slow.delete('a');
    await m.idle();
    expect(requests).toEqual(['a', 'b', 'c']);
    for (const id of ['a', 'b', 'c']) {
      expect(await row(id)).toMatchObject({
        state: 'done',
        receivedBytes: SIZE,
        quality: 'high',
        sources: ['playlist:p1'],
      });
      expect(await stored(m, id)).toEqual(fileOf(id));
    }
  });

  it("is 'done' only once the app itself opens offline (the service worker ready), not when the file is stored", async () => {
    let shellReady: () => void = () => undefined;
    let asked = 0;
    const shell = new Promise<void>((resolve) => (shellReady = resolve));
    const m = manager({
      shellOffline: () => {
        asked += 1;
        return shell;
      },
    });
    await m.start();
    await m.enqueue(['a'], 'track');
    await until(async () => (await stored(m, 'a')) !== null);
    // Stored whole, but the worker is still installing: not downloaded yet.
    expect(asked).toBe(1);
    expect(await row('a')).toMatchObject({ state: 'downloading' });
    shellReady();
    await m.idle();
    expect(await row('a')).toMatchObject({ state: 'done', receivedBytes: SIZE });
    expect(await stored(m, 'a')).toEqual(fileOf('a'));
  });

  it('a file whose app could not be saved offline fails, and pausing while it waits pauses it', async () => {
    const m = manager({ shellOffline: () => Promise.reject(new Error('install failed')) });
    await m.start();
    await m.enqueue(['a'], 'track');
    await m.idle();
    expect(await row('a')).toMatchObject({ state: 'failed', error: DOWNLOAD_FAILED_MESSAGE });

    const waiting = manager({ userId: 'u2', shellOffline: () => new Promise<void>(() => {}) });
    await waiting.start();
    await waiting.enqueue(['b'], 'track');
    await until(async () => (await stored(waiting, 'b')) !== null);
    await waiting.pause('b');
    await waiting.idle();
    expect(await row('b', 'u2')).toMatchObject({ state: 'paused' });
  });

  it('pauses and resumes one file from the bytes kept; a paused file is not stored', async () => {
    const m = manager();
    await m.start();
    slow.add('a');
    await m.enqueue(['a'], 'track');
    await until(async () => ((await row('a'))?.receivedBytes ?? 0) >= 16384);
    await m.pause('a');
    await m.idle();
    const paused = await row('a');
    expect(paused?.state).toBe('paused');
    expect(paused?.receivedBytes).toBeGreaterThanOrEqual(16384);
    expect(await stored(m, 'a')).toBeNull();
    slow.delete('a');
    await m.resume('a');
    await m.idle();
    expect((await row('a'))?.state).toBe('done');
    expect(rangeStarts()).toEqual([null, paused?.receivedBytes]);
    expect(await stored(m, 'a')).toEqual(fileOf('a'));
    expect(await partKeys()).toEqual([]);
  });

  it('pauses and resumes the whole queue', async () => {
    const m = manager();
    await m.start();
    slow.add('a');
    await m.enqueue(['a', 'b'], 'liked');
    await until(async () => ((await row('a'))?.receivedBytes ?? 0) > 0);
    await m.pause();
    await m.idle();
    expect((await db.downloads.toArray()).map((d) => d.state)).toEqual(['paused', 'paused']);
    slow.delete('a');
    await m.resume();
    await m.idle();
    expect((await db.downloads.toArray()).map((d) => d.state)).toEqual(['done', 'done']);
  });

  it('cancels a running download: row and file go, the queue goes on', async () => {
    const m = manager();
    await m.start();
    slow.add('a');
    await m.enqueue(['a', 'b'], 'playlist:p1');
    await until(async () => ((await row('a'))?.receivedBytes ?? 0) > 0);
    await m.remove('a');
    await m.idle();
    expect(await row('a')).toBeUndefined();
    expect(await stored(m, 'a')).toBeNull();
    expect((await row('b'))?.state).toBe('done');
  });

  it('resumes after a reload from the bytes kept, with a Range request', async () => {
    const first = manager();
    await first.start();
    slow.add('a');
    await first.enqueue(['a', 'b'], 'playlist:p1');
    await until(async () => (await partKeys()).length >= 2);
    await first.stop();
    const kept = (await row('a'))?.receivedBytes ?? 0;
    expect(kept).toBeGreaterThanOrEqual(16384);
    // The page went away mid-file: the row still says downloading.
    await db.downloads.update(['u1', 'a'], { state: 'downloading' });
    slow.delete('a');
    const second = manager();
    await second.start();
    await second.idle();
    expect((await row('a'))?.state).toBe('done');
    expect((await row('b'))?.state).toBe('done');
    expect(rangeStarts()).toEqual([null, kept, null]);
    expect(await stored(second, 'a')).toEqual(fileOf('a'));
  });

  it('a connection dropped mid-file while online goes on from where it stopped', async () => {
    const m = manager();
    await m.start();
    dropOnceAt.set('a', 20480);
    await m.enqueue(['a'], 'track');
    await m.idle();
    expect(await row('a')).toMatchObject({ state: 'done', receivedBytes: SIZE, error: null });
    // Whatever arrived before the drop was kept (and then only the rest was asked for).
    expect(rangeStarts()).toEqual([null, 20480]);
    expect(await stored(m, 'a')).toEqual(fileOf('a'));
    expect(await partKeys()).toEqual([]);
  });

  it('a server that ignores Range, or whose file changed, sends it whole again', async () => {
    const m = manager();
    await m.start();
    dropOnceAt.set('a', 20480);
    noRanges.add('a');
    await m.enqueue(['a'], 'track');
    await m.idle();
    expect(rangeStarts()).toEqual([null, 20480]);
    expect(await stored(m, 'a')).toEqual(fileOf('a'));
    expect((await row('a'))?.receivedBytes).toBe(SIZE);

    ranges.length = 0;
    slow.add('b');
    await m.enqueue(['b'], 'track');
    await until(async () => ((await row('b'))?.receivedBytes ?? 0) >= 8192);
    await m.pause('b');
    await m.idle();
    changed.add('b');
    slow.delete('b');
    await m.resume('b');
    await m.idle();
    // If-Range carried the old ETag: the server sent the new file whole, stored as it is.
    expect(ranges[1]).toMatch(/^bytes=\d+-$/);
    expect(await stored(m, 'b')).toEqual(fileOf('b'));
    expect(await row('b')).toMatchObject({ state: 'done', etag: '"b-2"', receivedBytes: SIZE });
  });

  it('a connection dropped while offline waits for the network, then goes on', async () => {
    const m = manager();
    await m.start();
    drop.add('a');
    goOffline.add('a');
    await m.enqueue(['a'], 'track');
    await m.idle();
    const waiting = await row('a');
    expect(waiting).toMatchObject({ state: 'queued', receivedBytes: SIZE / 2 });
    expect(await stored(m, 'a')).toBeNull();
    drop.delete('a');
    online = true;
    m.resumeWhenOnline();
    await m.idle();
    expect((await row('a'))?.state).toBe('done');
    expect(rangeStarts()).toEqual([null, SIZE / 2]);
    expect(await stored(m, 'a')).toEqual(fileOf('a'));
  });

  it('a connection that keeps dropping while online fails the file; Try again resumes', async () => {
    const m = manager();
    await m.start();
    drop.add('a');
    await m.enqueue(['a', 'b'], 'playlist:p1');
    await m.idle();
    expect(await row('a')).toMatchObject({
      state: 'failed',
      error: DOWNLOAD_FAILED_MESSAGE,
      receivedBytes: SIZE / 2,
    });
    // The first try, then one that brought half the file, then `retries` (2) that brought
    // nothing more: the file fails instead of trying for ever.
    expect(requests.filter((r) => r === 'a')).toHaveLength(4);
    expect((await row('b'))?.state).toBe('done');
    drop.delete('a');
    ranges.length = 0;
    await m.resume('a');
    await m.idle();
    expect(rangeStarts()).toEqual([SIZE / 2]);
    expect(await stored(m, 'a')).toEqual(fileOf('a'));
  });

  it('cancelling an unfinished file deletes the bytes kept for it', async () => {
    const m = manager();
    await m.start();
    slow.add('a');
    await m.enqueue(['a'], 'track');
    await until(async () => (await partKeys()).length >= 1);
    await m.pause('a');
    await m.idle();
    expect((await partKeys()).length).toBeGreaterThan(0);
    await m.remove('a');
    expect(await partKeys()).toEqual([]);
    expect(await row('a')).toBeUndefined();
  });

  it('a file the server refuses fails with its reason', async () => {
    const m = manager({
      sign: () => Promise.reject(new Error('This track is not available to you.')),
    });
    await m.start();
    await m.enqueue(['a'], 'track');
    await m.idle();
    expect(await row('a')).toMatchObject({
      state: 'failed',
      error: 'This track is not available to you.',
    });
  });

  it('a full device stops the queue with the quota message, until asked again', async () => {
    let full = true;
    const fullDisk = {
      open: async (name: string) => {
        const cache = await caches.open(name);
        return new Proxy(cache, {
          get(target, prop) {
            if (prop === 'put' && full)
              return () => Promise.reject(new DOMException('full', 'QuotaExceededError'));
            const value = Reflect.get(target, prop) as unknown;
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      },
    } as unknown as CacheStorage;
    const m = manager({ caches: fullDisk });
    await m.start();
    await m.enqueue(['a', 'b'], 'playlist:p1');
    await m.idle();
    expect(await row('a')).toMatchObject({ state: 'failed', error: QUOTA_MESSAGE });
    expect((await row('b'))?.state).toBe('queued');
    expect(requests).toEqual(['a']);
    full = false;
    await m.resume();
    await m.idle();
    expect((await row('a'))?.state).toBe('done');
    expect((await row('b'))?.state).toBe('done');
  });

  it('release keeps a track another source wants, and removes the rest', async () => {
    const m = manager();
    await m.start();
    await m.enqueue(['a', 'b'], 'playlist:p1');
    await m.enqueue(['b'], 'liked');
    await m.idle();
    await m.release(['a', 'b'], 'playlist:p1');
    expect(await row('a')).toBeUndefined();
    expect(await stored(m, 'a')).toBeNull();
    expect(await row('b')).toMatchObject({ state: 'done', sources: ['liked'] });
  });

  it("keepOnly removes each finished download the server's check no longer holds, file and row", async () => {
    const mine = manager();
    const theirs = manager({ userId: 'u2' });
    await mine.start();
    await theirs.start();
    await mine.enqueue(['a', 'b', 'c'], 'playlist:p1');
    await theirs.enqueue(['b'], 'track');
    await mine.idle();
    await theirs.idle();
    // The check answered a and c: b was taken down since.
    expect(await mine.keepOnly(new Set(['a', 'c']))).toEqual(['b']);
    expect(await row('b')).toBeUndefined();
    expect(await stored(mine, 'b')).toBeNull();
    expect((await row('a'))?.state).toBe('done');
    expect(await stored(mine, 'a')).toEqual(fileOf('a'));
    expect(await stored(mine, 'c')).toEqual(fileOf('c'));
    // Another listener's download of the same track is theirs to check.
    expect((await row('b', 'u2'))?.state).toBe('done');
    expect(await stored(theirs, 'b')).toEqual(fileOf('b'));
    // An empty answer (every track taken down) removes them all; again, nothing left to do.
    expect((await mine.keepOnly(new Set())).sort()).toEqual(['a', 'c']);
    expect(await mine.keepOnly(new Set())).toEqual([]);
    expect(await db.downloads.where('userId').equals('u1').count()).toBe(0);
  });

  it("removeAll removes this listener's files and rows, never another's", async () => {
    const mine = manager();
    const theirs = manager({ userId: 'u2' });
    await mine.start();
    await theirs.start();
    await mine.enqueue(['a', 'b'], 'playlist:p1');
    await theirs.enqueue(['a'], 'track');
    await mine.idle();
    await theirs.idle();
    await mine.removeAll();
    expect(await db.downloads.where('userId').equals('u1').count()).toBe(0);
    expect(await stored(mine, 'a')).toBeNull();
    expect(await stored(mine, 'b')).toBeNull();
    expect((await row('a', 'u2'))?.state).toBe('done');
    expect(await stored(theirs, 'a')).toEqual(fileOf('a'));
  });
});
