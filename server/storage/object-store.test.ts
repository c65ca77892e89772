import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openObjectStore, type ObjectStore } from './object-store';
import { createS3ObjectStore } from './s3-object-store';
import { startTestS3Server, type TestS3Server } from './test-s3';

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

let s3: TestS3Server | undefined;
const onS3 = async () => {
  s3 ??= await startTestS3Server();
  return createS3ObjectStore(s3.config);
};
afterAll(() => s3?.close());

describe.each([
  ['memory', async () => openObjectStore('memory')],
  ['files', async () => openObjectStore(dir)],
  ['S3 (s3rver)', onS3],
])('%s object store', (_kind, open) => {
  let store: ObjectStore;
  beforeAll(async () => {
    store = await open();
  });
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

  it('writes a stream (putStream) and writes nothing under the name when the stream fails', async () => {
    const parts = ['01234', '56789', 'abcdef'];
    expect(await store.putStream('exports', 'u1/s.zip', Readable.from(parts))).toBe(16);
    expect(await text(store, 'exports', 'u1/s.zip')).toEqual({ size: 16, text: parts.join('') });
    const failing = Readable.from(
      (async function* () {
        yield Buffer.from('half');
        throw new Error('source broke');
      })(),
    );
    await expect(store.putStream('exports', 'u1/broken.zip', failing)).rejects.toThrow(
      /source broke/,
    );
    expect(await store.read('exports', 'u1/broken.zip')).toBeNull();
    await store.remove('exports', 'u1/s.zip');
  });

  it('answers a probe when it can be reached', async () => {
    await expect(store.probe()).resolves.toBeUndefined();
  });

  it('refuses names that could leave the bucket', async () => {
    for (const name of ['../x', 'a/../../x', '/etc/passwd', 'a\\b', 'a\u0000b', 'a//b', '']) {
      await expect(store.put('tracks', name, bytes), name).rejects.toThrow(/Invalid key/);
    }
    await expect(store.put('..', 'x', bytes)).rejects.toThrow(/Bucket name invalid/);
  });
});

describe('S3 object store, large objects', { timeout: 120_000 }, () => {
  const big = new Uint8Array(21 * 1024 * 1024).map((_, i) => (i * 7 + (i >> 11)) & 0xff);

  it('writes a large body as a multipart upload and reads a range by moving only that range', async () => {
    const store = await onS3();
    const server = s3 as TestS3Server;
    await store.put('tracks', 'u1/big.wav', big); // above the 5 MiB threshold: 5 parts
    expect(await store.size('tracks', 'u1/big.wav')).toBe(big.length);

    const before = server.bytesSent();
    const got = await store.read('tracks', 'u1/big.wav', { start: 1_000_000, end: 1_000_099 });
    const body = new Uint8Array(await new Response(got!.stream).arrayBuffer());
    const sent = server.bytesSent() - before;
    expect(got!.size).toBe(big.length);
    expect(body).toEqual(big.subarray(1_000_000, 1_000_100));
    // 100 bytes of body plus one response's headers, never the 21 MB object.
    expect(sent).toBeGreaterThanOrEqual(100);
    expect(sent).toBeLessThan(4096);

    const whole = await store.read('tracks', 'u1/big.wav');
    const all = new Uint8Array(await new Response(whole!.stream).arrayBuffer());
    expect(all.length).toBe(big.length);
    expect(Buffer.compare(Buffer.from(all), Buffer.from(big))).toBe(0);

    await store.copy('tracks', 'u1/big.wav', 'u1/copy.wav', 'stems');
    expect(await store.size('stems', 'u1/copy.wav')).toBe(big.length);
    await store.remove('tracks', 'u1/big.wav');
    await store.remove('stems', 'u1/copy.wav');

    // The same bytes as a stream of 64 KiB chunks: a multipart upload of unknown length.
    const chunks = Array.from({ length: Math.ceil(big.length / 65536) }, (_, i) =>
      Buffer.from(big.subarray(i * 65536, (i + 1) * 65536)),
    );
    expect(await store.putStream('exports', 'u1/streamed.zip', Readable.from(chunks))).toBe(
      big.length,
    );
    const streamed = await store.read('exports', 'u1/streamed.zip');
    const back = Buffer.from(await new Response(streamed!.stream).arrayBuffer());
    expect(Buffer.compare(back, Buffer.from(big))).toBe(0);
    await store.remove('exports', 'u1/streamed.zip');
  });

  it('signs every request: a wrong secret is refused by the S3 server', async () => {
    await onS3();
    const server = s3 as TestS3Server;
    const forged = createS3ObjectStore({ ...server.config, secretAccessKey: 'not-the-secret' });
    await expect(forged.put('tracks', 'u1/x', new Uint8Array(3))).rejects.toThrow(/signature/i);
    await expect(forged.read('tracks', 'u1/x')).rejects.toThrow(/signature/i);
    await expect(forged.probe()).rejects.toThrow();
    const elsewhere = createS3ObjectStore({ ...server.config, bucket: 'no-such-bucket' });
    await expect(elsewhere.probe()).rejects.toThrow();
  });

  it('stores an empty object (never an upload: Storage refuses empty files)', async () => {
    const store = await onS3();
    await store.put('tracks', 'u1/empty', new Uint8Array(0));
    expect(await text(store, 'tracks', 'u1/empty')).toEqual({ size: 0, text: '' });
  });
});
