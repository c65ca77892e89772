import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openObjectStore, type ObjectStore } from './object-store';

const dir = mkdtempSync(join(tmpdir(), 'soundloft-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = async (
  store: ObjectStore,
  bucket: string,
  name: string,
  range?: { start: number; end: number },
) => {
  const got = await store.read(bucket, name, range);
  return got ? { size: got.size, text: await new Response(got.stream).text() } : null;
};

describe.each([
  ['memory', () => openObjectStore('memory')],
  ['files', () => openObjectStore(dir)],
])('%s object store', (_kind, open) => {
  const store = open();
  const bytes = new TextEncoder().encode('0123456789');

  it('puts, reads whole and ranged, sizes and removes', async () => {
    await store.put('tracks', 'u1/a b.mp3', bytes);
    expect(await text(store, 'tracks', 'u1/a b.mp3')).toEqual({ size: 10, text: '0123456789' });
    expect(await text(store, 'tracks', 'u1/a b.mp3', { start: 2, end: 4 })).toEqual({
      size: 10,
      text: '234',
    });
    expect(await store.size('tracks', 'u1/a b.mp3')).toBe(10);
    await store.remove('tracks', 'u1/a b.mp3');
    expect(await store.read('tracks', 'u1/a b.mp3')).toBeNull();
    await store.remove('tracks', 'u1/a b.mp3'); // absent: no error
  });

  it('moves and copies, across buckets too', async () => {
    await store.put('tracks', 'u1/x.mp3', bytes);
    await store.copy('tracks', 'u1/x.mp3', 'u1/y.mp3');
    await store.move('tracks', 'u1/x.mp3', 'u2/z.mp3', 'covers');
    expect(await store.size('tracks', 'u1/x.mp3')).toBeNull();
    expect(await store.size('tracks', 'u1/y.mp3')).toBe(10);
    expect(await store.size('covers', 'u2/z.mp3')).toBe(10);
    await expect(store.move('tracks', 'u1/none', 'u1/other')).rejects.toThrow(/not found/);
  });

  it('refuses names that could leave the bucket', async () => {
    for (const name of ['../x', 'a/../../x', '/etc/passwd', 'a\\b', 'a\u0000b', 'a//b', '']) {
      await expect(store.put('tracks', name, bytes), name).rejects.toThrow(/Invalid key/);
    }
    await expect(store.put('..', 'x', bytes)).rejects.toThrow(/Bucket name invalid/);
  });
});
