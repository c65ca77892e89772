import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../db/test-factories';
import { publicObjectPath, putObjectAsService } from './service';
import { signObjectUrl } from './signed-urls';
import { STORAGE_BACKENDS, useHarnessWithTwoUsers, type StorageHarness } from './test-support';
import { HTML, SVG, jpegBytes, mp3Bytes, pngBytes, wavBytes } from './test-files';

describe.each(STORAGE_BACKENDS)('storage on %s', (backend) => {
  let h: StorageHarness;
  let alice: TestUser;
  let bob: TestUser;

  useHarnessWithTwoUsers(backend, (started) => ({ h, alice, bob } = started));

  const blob = (bytes: Uint8Array, type: string) => new Blob([bytes.slice()], { type });
  const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

  describe('uploads with supabase-js', () => {
    it('uploads a track (multipart), serves it by signed URL with safe headers, never publicly', async () => {
      const path = `${alice.id}/${Date.now()}_My_Song.mp3`;
      const mp3 = mp3Bytes(8, true);
      const { data, error } = await h
        .client(alice)
        .storage.from('tracks')
        .upload(path, blob(mp3, 'audio/mpeg'), { cacheControl: '3600', upsert: false });
      expect(error).toBeNull();
      expect(data).toMatchObject({ path, fullPath: `tracks/${path}` });
      expect(data?.id).toMatch(/^[0-9a-f-]{36}$/);

      // The tracks bucket is private (originals go by plan, docs/upload.md).
      const { publicUrl } = h.client().storage.from('tracks').getPublicUrl(path).data;
      expect(publicUrl).toBe(`${h.url}${publicObjectPath('tracks', path)}`);
      expect(await (await fetch(publicUrl)).json()).toMatchObject({ message: 'Bucket not found' });
      const signed = await h.client(alice).storage.from('tracks').createSignedUrl(path, 60);
      const res = await fetch(signed.data!.signedUrl);
      expect(res.status).toBe(200);
      expect(await bytesOf(res)).toEqual(mp3);
      expect(res.headers.get('content-type')).toBe('audio/mpeg');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(res.headers.get('cache-control')).toBe('max-age=3600');
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    });

    it('uploads raw bytes and stores the sniffed type, not the declared one', async () => {
      const path = `${alice.id}/cover.png`;
      const { error } = await h
        .client(alice)
        .storage.from('covers')
        .upload(path, pngBytes(), { contentType: 'image/jpeg', cacheControl: '60' });
      expect(error).toBeNull();
      const res = await fetch(h.client().storage.from('covers').getPublicUrl(path).data.publicUrl);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('cache-control')).toBe('max-age=60');
    });

    it('refuses a duplicate without upsert (409) and replaces with upsert and update', async () => {
      const storage = h.client(alice).storage.from('avatars');
      const path = `${alice.id}/${alice.id}-1.png`;
      expect((await storage.upload(path, blob(pngBytes(), 'image/png'))).error).toBeNull();
      const dup = await storage.upload(path, blob(pngBytes(), 'image/png'));
      expect(dup.error).toMatchObject({
        status: 400,
        statusCode: '409',
        message: 'The resource already exists',
      });
      const up = await storage.upload(path, blob(jpegBytes(), 'image/jpeg'), { upsert: true });
      expect(up.error).toBeNull();
      const url = storage.getPublicUrl(path).data.publicUrl;
      expect((await fetch(url)).headers.get('content-type')).toBe('image/jpeg');
      expect((await storage.update(path, blob(pngBytes(64), 'image/png'))).error).toBeNull();
      const res = await fetch(url);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect((await bytesOf(res)).length).toBe(pngBytes(64).length);
    });

    it("refuses another user's folder (403) and anonymous uploads (403)", async () => {
      const other = await h
        .client(bob)
        .storage.from('tracks')
        .upload(`${alice.id}/evil.mp3`, blob(mp3Bytes(), 'audio/mpeg'));
      expect(other.error).toMatchObject({ statusCode: '403', status: 400 });
      expect(other.error?.message).toMatch(/row-level security/);
      const anon = await h
        .client()
        .storage.from('tracks')
        .upload(`${alice.id}/anon.mp3`, blob(mp3Bytes(), 'audio/mpeg'));
      expect(anon.error).toMatchObject({ statusCode: '403' });
    });

    it('refuses files over the bucket limit (413), also before reading the body', async () => {
      const big = new Uint8Array(2 * 1024 * 1024 + 1);
      big.set(pngBytes());
      const { error } = await h
        .client(alice)
        .storage.from('avatars')
        .upload(`${alice.id}/big.png`, blob(big, 'image/png'));
      expect(error).toMatchObject({
        statusCode: '413',
        message: 'The object exceeded the maximum allowed size',
      });
      const res = await fetch(`${h.url}/storage/v1/object/covers/${alice.id}/huge.png`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${h.tokenFor(alice)}`,
          'Content-Type': 'image/png',
          'Content-Length': String(6 * 1024 * 1024),
        },
        body: new Uint8Array(6 * 1024 * 1024),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ statusCode: '413' });
    });

    it.each([
      ['tracks', 'evil.mp3', HTML, 'audio/mpeg'],
      ['tracks', 'evil.wav', SVG, 'audio/wav'],
      ['covers', 'evil.png', SVG, 'image/png'],
      ['covers', 'evil.svg', SVG, 'image/svg+xml'],
      ['avatars', 'evil.jpg', HTML, 'image/jpeg'],
      ['covers', 'song.png', mp3Bytes(), 'image/png'],
      ['tracks', 'cover.mp3', pngBytes(), 'audio/mpeg'],
    ])('refuses wrong bytes: %s/%s (415)', async (bucket, file, bytes, type) => {
      const { error } = await h
        .client(alice)
        .storage.from(bucket)
        .upload(`${alice.id}/${file}`, blob(bytes, type));
      expect(error).toMatchObject({ statusCode: '415', status: 400 });
    });

    it('accepts wav, refuses unsafe object names', async () => {
      const ok = await h
        .client(alice)
        .storage.from('tracks')
        .upload(`${alice.id}/take.wav`, wavBytes(), { contentType: 'audio/wav' });
      expect(ok.error).toBeNull();
      for (const name of [
        '..%2F..%2Fetc%2Fpasswd',
        'a%5Cb.mp3',
        'a%00b.mp3',
        '.%2F.%2Fx.mp3',
        '..',
      ]) {
        const res = await fetch(`${h.url}/storage/v1/object/tracks/${alice.id}/${name}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${h.tokenFor(alice)}`, 'Content-Type': 'audio/mpeg' },
          body: mp3Bytes(),
        });
        expect(res.status, name).toBe(400);
        expect(await res.json(), name).toMatchObject({
          statusCode: expect.stringMatching(/^40[034]$/),
        });
      }
    });
  });

  describe('reads', () => {
    const path = () => `${alice.id}/range.wav`;
    const wav = wavBytes(1000);
    let signedUrl = '';
    beforeAll(async () => {
      await putObjectAsService(h.db, h.store, {
        bucket: 'tracks',
        name: path(),
        owner: alice.id,
        bytes: wav,
        contentType: 'audio/wav',
      });
      const { data } = await h.client(alice).storage.from('tracks').createSignedUrl(path(), 600);
      signedUrl = data!.signedUrl;
    });
    const url = () => signedUrl;

    it('answers Range requests with 206 and Content-Range, 416 when unsatisfiable', async () => {
      const first = await fetch(url(), { headers: { Range: 'bytes=0-9' } });
      expect(first.status).toBe(206);
      expect(first.headers.get('content-range')).toBe(`bytes 0-9/${wav.length}`);
      expect(first.headers.get('content-length')).toBe('10');
      expect(await bytesOf(first)).toEqual(wav.subarray(0, 10));
      const tail = await fetch(url(), { headers: { Range: 'bytes=-4' } });
      expect(tail.status).toBe(206);
      expect(await bytesOf(tail)).toEqual(wav.subarray(wav.length - 4));
      const open = await fetch(url(), { headers: { Range: `bytes=${wav.length - 2}-` } });
      expect(await bytesOf(open)).toEqual(wav.subarray(wav.length - 2));
      const bad = await fetch(url(), { headers: { Range: `bytes=${wav.length}-` } });
      expect(bad.status).toBe(416);
      expect(bad.headers.get('content-range')).toBe(`bytes */${wav.length}`);
    });

    it('answers HEAD and If-None-Match, and downloads as an attachment on ?download', async () => {
      const head = await fetch(url(), { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(wav.length));
      const etag = head.headers.get('etag') ?? '';
      const again = await fetch(url(), { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      const dl = await fetch(`${url()}&download=take.wav`);
      expect(dl.headers.get('content-disposition')).toMatch(/^attachment; filename="take.wav"/);
    });

    it('downloads through supabase-js (authenticated route) and checks existence', async () => {
      // Originals are private to their uploader (and the plans' rules, supabase/tests/upload-pipeline).
      const byBob = await h.client(bob).storage.from('tracks').download(path());
      expect(byBob.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
      const storage = h.client(alice).storage.from('tracks');
      const { data, error } = await storage.download(path());
      expect(error).toBeNull();
      expect(new Uint8Array(await data!.arrayBuffer())).toEqual(wav);
      expect((await storage.exists(path())).data).toBe(true);
      const info = await storage.info(path());
      expect(info.data).toMatchObject({ size: wav.length, contentType: 'audio/wav' });
      expect((await storage.exists(`${alice.id}/nope.wav`)).data).toBe(false);
      const missing = await fetch(`${h.url}/storage/v1/object/tracks/${alice.id}/nope.wav`, {
        headers: { Authorization: `Bearer ${h.tokenFor(alice)}` },
      });
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({
        statusCode: '404',
        message: 'Object not found',
      });
    });

    it('signs URLs; refuses expired, tampered and other-object tokens', async () => {
      expect(
        (await h.client(bob).storage.from('tracks').createSignedUrl(path(), 60)).error,
      ).toMatchObject({
        message: 'Object not found',
      });
      const storage = h.client(alice).storage.from('tracks');
      const { data, error } = await storage.createSignedUrl(path(), 60);
      expect(error).toBeNull();
      const signed = await fetch(data!.signedUrl);
      expect(signed.status).toBe(200);
      expect(signed.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await bytesOf(signed)).length).toBe(wav.length);

      const base = `${h.url}/storage/v1/object/sign/tracks/${path()}?token=`;
      const expired = signObjectUrl(h.keys.jwtSecret, 'tracks', path(), 60, null, 1_000_000);
      const resExpired = await fetch(base + expired);
      expect(resExpired.status).toBe(400);
      expect(await resExpired.json()).toMatchObject({ statusCode: '400', code: 'ExpiredToken' });
      const token = new URL(data!.signedUrl).searchParams.get('token') ?? '';
      const tampered = `${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`;
      expect((await fetch(base + tampered)).status).toBe(400);
      const other = await fetch(
        `${h.url}/storage/v1/object/sign/tracks/${alice.id}/take.wav?token=${token}`,
      );
      expect(await other.json()).toMatchObject({ code: 'InvalidSignature' });
      const many = await storage.createSignedUrls([path(), `${alice.id}/nope.wav`], 60);
      expect(many.data?.map((d) => d.error === null)).toEqual([true, false]);
    });
  });
});
