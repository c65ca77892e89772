/**
 * The download manager against a real HTTP server (node:http on loopback), a real Cache Storage
 * (undici's, with undici's fetch and Response so the cache accepts what it stores) and Dexie on
 * fake-indexeddb. Two stand-ins only: the signer (the storage server's signing is tested in
 * audio-remote and the storage suites) and, in the quota test, a cache whose put fails as a
 * full disk does (a disk cannot be filled here).
 */
import 'fake-indexeddb/auto';
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
const drop = new Set<string>();
let server: Server;
let base: string;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const trackId = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
    requests.push(trackId);
    const body = fileOf(trackId);
    res.writeHead(200, { 'Content-Type': 'audio/mpeg', 'Content-Length': String(SIZE) });
    if (!slow.has(trackId) && !drop.has(trackId)) {
      res.end(body);
      return;
    }
    let offset = 0;
    const timer = setInterval(() => {
      if (drop.has(trackId) && offset >= SIZE / 2) {
        clearInterval(timer);
        res.destroy();
        return;
      }
      if (!slow.has(trackId) && !drop.has(trackId)) {
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
  // The manager stores `new Response(...)`: undici's, as the cache it writes to.
  (globalThis as { Response: unknown }).Response = UndiciResponse;
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
  requests.length = 0;
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

  it('pauses and resumes one file; a paused file is not stored', async () => {
    const m = manager();
    await m.start();
    slow.add('a');
    await m.enqueue(['a'], 'track');
    await until(async () => ((await row('a'))?.receivedBytes ?? 0) > 0);
    await m.pause('a');
    await m.idle();
    expect((await row('a'))?.state).toBe('paused');
    expect(await stored(m, 'a')).toBeNull();
    slow.delete('a');
    await m.resume('a');
    await m.idle();
    expect((await row('a'))?.state).toBe('done');
    expect(await stored(m, 'a')).toEqual(fileOf('a'));
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

  it('resumes after a reload: the interrupted file starts again from its first byte', async () => {
    const first = manager();
    await first.start();
    slow.add('a');
    await first.enqueue(['a', 'b'], 'playlist:p1');
    await until(async () => ((await row('a'))?.receivedBytes ?? 0) > 0);
    // The page goes away mid-file: the row still says downloading.
    await db.downloads.update(['u1', 'a'], { state: 'downloading' });
    await first.stop();
    await db.downloads.update(['u1', 'a'], { state: 'downloading', receivedBytes: 4096 });
    slow.delete('a');
    const second = manager();
    await second.start();
    await second.idle();
    expect((await row('a'))?.state).toBe('done');
    expect((await row('b'))?.state).toBe('done');
    expect(await stored(second, 'a')).toEqual(fileOf('a'));
  });

  it('a connection dropped while offline waits for the network, then completes', async () => {
    const m = manager();
    await m.start();
    drop.add('a');
    await m.enqueue(['a'], 'track');
    await until(async () => ((await row('a'))?.receivedBytes ?? 0) > 0);
    online = false;
    await m.idle();
    expect(await row('a')).toMatchObject({ state: 'queued', receivedBytes: 0 });
    expect(await stored(m, 'a')).toBeNull();
    drop.delete('a');
    online = true;
    m.resumeWhenOnline();
    await m.idle();
    expect((await row('a'))?.state).toBe('done');
  });

  it('a connection dropped while online fails the file with a message', async () => {
    const m = manager();
    await m.start();
    drop.add('a');
    await m.enqueue(['a', 'b'], 'playlist:p1');
    await m.idle();
    expect(await row('a')).toMatchObject({ state: 'failed', error: DOWNLOAD_FAILED_MESSAGE });
    expect((await row('b'))?.state).toBe('done');
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
