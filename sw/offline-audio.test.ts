/**
 * The service worker's downloaded-audio route, run by Workbox against a real Cache Storage:
 * undici's implementation of the Cache API (the one Node's fetch is built on), with undici's
 * Request and Response so the cache accepts them. Only the fetch event is a stand-in (Node has
 * no service worker): the strategy needs its waitUntil.
 */
import { Headers, Request, Response, caches } from 'undici';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DOWNLOADS_CACHE,
  offlineAudioPartFolder,
  offlineAudioPath,
} from '../src/lib/offline-audio';
import type * as OfflineAudio from './offline-audio';

const ORIGIN = 'https://soundloft.test';
const SCOPE = `${ORIGIN}/`;
const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);

class StandInExtendableEvent extends Event {
  waitUntil(): void {}
}
class StandInFetchEvent extends StandInExtendableEvent {}

type Module = typeof OfflineAudio;
let sw: Module;

beforeAll(async () => {
  const g = globalThis as Record<string, unknown>;
  // Workbox checks its options against the worker's event classes (stand-ins here).
  Object.assign(g, { Request, Response, Headers, caches, FetchEvent: StandInFetchEvent });
  g.ExtendableEvent = StandInExtendableEvent;
  g.self = Object.assign(g, {
    registration: { scope: SCOPE },
    location: new URL(SCOPE),
    __WB_DISABLE_DEV_LOGS: true,
  });
  sw = await import('./offline-audio');
});

beforeEach(async () => {
  for (const name of await caches.keys()) await caches.delete(name);
});

async function store(path: string, body: Uint8Array = bytes) {
  const cache = await caches.open(DOWNLOADS_CACHE);
  await cache.put(
    new Request(ORIGIN + path),
    new Response(body, {
      headers: { 'Content-Type': 'audio/mpeg', 'Content-Length': String(body.length) },
    }),
  );
}

function serve(path: string, headers: Record<string, string> = {}) {
  const request = new Request(ORIGIN + path, { headers });
  const event = new StandInExtendableEvent('fetch') as unknown as ExtendableEvent;
  return sw.serveOfflineAudio({
    request: request as unknown as globalThis.Request,
    event,
    url: new URL(request.url),
    params: undefined,
  } as Parameters<Module['serveOfflineAudio']>[0]);
}

describe('offline audio route', () => {
  const path = offlineAudioPath('user-1', 'track-1');

  it('matches only same-origin /offline-audio/ paths', () => {
    expect(sw.matchesOfflineAudio(new URL(ORIGIN + path), ORIGIN)).toBe(true);
    expect(sw.matchesOfflineAudio(new URL('https://elsewhere.test' + path), ORIGIN)).toBe(false);
    expect(sw.matchesOfflineAudio(new URL(`${ORIGIN}/storage/v1/object/x`), ORIGIN)).toBe(false);
    // The kept bytes of an unfinished download are never played.
    const part = `${offlineAudioPartFolder('user-1', 'track-1')}0`;
    expect(sw.matchesOfflineAudio(new URL(ORIGIN + part), ORIGIN)).toBe(false);
  });

  it('never answers with the kept part of an unfinished download', async () => {
    const cache = await caches.open(DOWNLOADS_CACHE);
    await cache.put(
      `${ORIGIN}${offlineAudioPartFolder('user-1', 'track-1')}0`,
      new Response(bytes.slice(0, 500)),
    );
    expect((await serve(path)).status).toBe(404);
  });

  it('answers a whole file with 200', async () => {
    await store(path);
    const res = await serve(path);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it('answers a Range request with 206 and the slice (seeking)', async () => {
    await store(path);
    const res = await serve(path, { Range: 'bytes=900-' });
    expect(res.status).toBe(206);
    expect(res.headers.get('Content-Range')).toBe('bytes 900-999/1000');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.slice(900));
    const middle = await serve(path, { Range: 'bytes=10-19' });
    expect(middle.status).toBe(206);
    expect(new Uint8Array(await middle.arrayBuffer())).toEqual(bytes.slice(10, 20));
  });

  it("finds the file by its path whatever the request's query", async () => {
    await store(path);
    const res = await serve(`${path}?t=1`, { Range: 'bytes=10-19' });
    expect(res.status).toBe(206);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.slice(10, 20));
  });

  it('answers a range past the end of the file with 416', async () => {
    await store(path);
    expect((await serve(path, { Range: 'bytes=0-5000' })).status).toBe(416);
  });

  it('answers a track that is not downloaded with 404, never the network', async () => {
    await store(path);
    const res = await serve(offlineAudioPath('user-2', 'track-1'));
    expect(res.status).toBe(404);
    expect(await res.text()).toBe(sw.NOT_DOWNLOADED);
  });

  it("survives the precache's cleanup of outdated caches", async () => {
    const { deleteOutdatedCaches } = await import('workbox-precaching/utils/deleteOutdatedCaches');
    await store(path);
    const old = `workbox-precache-v1-${SCOPE}`;
    await caches.open(old);
    const deleted = await deleteOutdatedCaches(`workbox-precache-v2-${SCOPE}`);
    expect(deleted).toEqual([old]);
    expect(await caches.has(DOWNLOADS_CACHE)).toBe(true);
    expect((await serve(path)).status).toBe(200);
  });
});
