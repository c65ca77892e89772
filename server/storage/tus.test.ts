/**
 * Resumable uploads at /storage/v1/upload/resumable, driven by tus-js-client with the options
 * Supabase documents: the object lands through the same checks as every upload, an interrupted
 * upload resumes at the server's offset, and every refusal comes before or instead of a file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Upload, type UploadOptions } from 'tus-js-client';
import { testDatabaseKind } from '../db/test-database';
import type { TestUser } from '../db/test-factories';
import { makeMp3, synthSignal } from '../processing/test-fixtures';
import { STORAGE_BACKENDS, useHarnessWithTwoUsers, type StorageHarness } from './test-support';
import { pngBytes, sameBytes } from './test-files';

describe.each(STORAGE_BACKENDS)('storage on %s', (backend) => {
  let h: StorageHarness;
  let alice: TestUser;
  let bob: TestUser;
  let mp3: Uint8Array;

  useHarnessWithTwoUsers(backend, (started) => ({ h, alice, bob } = started));
  beforeAll(async () => {
    mp3 = await makeMp3(synthSignal(30, { channels: 1 }), 128); // about 480 KB
  });

  const CHUNK = 64 * 1024;

  function options(
    user: TestUser | null,
    objectName: string,
    extra: Partial<UploadOptions> = {},
  ): UploadOptions {
    return {
      endpoint: `${h.url}/storage/v1/upload/resumable`,
      retryDelays: [],
      headers: {
        ...(user ? { authorization: `Bearer ${h.tokenFor(user)}` } : {}),
        apikey: h.keys.anonKey,
        'x-upsert': 'false',
      },
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      metadata: {
        bucketName: 'tracks',
        objectName,
        contentType: 'audio/mpeg',
        cacheControl: '3600',
      },
      chunkSize: CHUNK,
      ...extra,
    };
  }

  function upload(bytes: Uint8Array, opts: UploadOptions): Promise<{ url: string | null }> {
    return new Promise((resolve, reject) => {
      const u = new Upload(Buffer.from(bytes), {
        ...opts,
        onError: reject,
        onSuccess: () => resolve({ url: u.url }),
      });
      u.start();
    });
  }

  function statusOf(error: unknown): number | undefined {
    return (
      error as { originalResponse?: { getStatus(): number } | null }
    ).originalResponse?.getStatus();
  }

  async function stored(name: string): Promise<Buffer | null> {
    const { data } = await h.client(alice).storage.from('tracks').download(name);
    return data ? Buffer.from(await data.arrayBuffer()) : null;
  }

  describe(`resumable uploads (TUS) (${testDatabaseKind()})`, { timeout: 120_000 }, () => {
    it('uploads in chunks through tus-js-client and stores the object like any upload', async () => {
      const name = `${alice.id}/${Date.now()}_whole_take.mp3`;
      await upload(mp3, options(alice, name));
      expect(sameBytes(await stored(name), mp3)).toBe(true);
      const info = await h.client(alice).storage.from('tracks').info(name);
      expect(info.data).toMatchObject({
        contentType: 'audio/mpeg',
        size: mp3.length,
        cacheControl: 'max-age=3600',
      });
    });

    it('uploads a file smaller than one chunk in the creation request alone (the app: 6 MB chunks)', async () => {
      const name = `${alice.id}/${Date.now()}_one_request.mp3`;
      const { url } = await upload(mp3, options(alice, name, { chunkSize: 6 * 1024 * 1024 }));
      expect(sameBytes(await stored(name), mp3)).toBe(true);
      // The finished upload's partial file is gone from the unfinished ones: its URL answers 404.
      const head = () =>
        fetch(url ?? '', {
          method: 'HEAD',
          headers: {
            'Tus-Resumable': '1.0.0',
            apikey: h.keys.anonKey,
            authorization: `Bearer ${h.tokenFor(alice)}`,
          },
        }).then((res) => res.status);
      await expect.poll(head).toBe(404);
    });

    it('resumes an interrupted upload where the server stopped, with the right bytes', async () => {
      const name = `${alice.id}/${Date.now()}_resumed.mp3`;
      const uploadUrl = await new Promise<string>((resolve, reject) => {
        const u: Upload = new Upload(Buffer.from(mp3), {
          ...options(alice, name),
          onError: reject,
          onChunkComplete: (_size, sent) => {
            if (sent >= CHUNK * 2) {
              void u.abort().then(() => resolve(u.url ?? ''));
            }
          },
        });
        u.start();
      });
      expect(uploadUrl).toContain('/storage/v1/upload/resumable/');
      const head = await fetch(uploadUrl, {
        method: 'HEAD',
        headers: { 'Tus-Resumable': '1.0.0', authorization: `Bearer ${h.tokenFor(alice)}` },
      });
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBeGreaterThanOrEqual(CHUNK * 2);
      expect(offset).toBeLessThan(mp3.length);
      expect(await stored(name)).toBeNull();
      // Someone else cannot look at or continue it.
      const peek = await fetch(uploadUrl, {
        method: 'HEAD',
        headers: { 'Tus-Resumable': '1.0.0', authorization: `Bearer ${h.tokenFor(bob)}` },
      });
      expect(peek.status).toBe(403);
      await upload(mp3, { ...options(alice, name), uploadUrl });
      expect(sameBytes(await stored(name), mp3)).toBe(true);
    });

    it('refuses at creation: no token, another user’s folder, over 50 MB, an existing name', async () => {
      const name = `${alice.id}/${Date.now()}_refused.mp3`;
      expect(statusOf(await upload(mp3, options(null, name)).catch((e: unknown) => e))).toBe(403);
      expect(statusOf(await upload(mp3, options(bob, name)).catch((e: unknown) => e))).toBe(403);
      const tooBig = await fetch(`${h.url}/storage/v1/upload/resumable`, {
        method: 'POST',
        headers: {
          'Tus-Resumable': '1.0.0',
          authorization: `Bearer ${h.tokenFor(alice)}`,
          'Upload-Length': String(50 * 1024 * 1024 + 1),
          'Upload-Metadata': `bucketName ${Buffer.from('tracks').toString('base64')},objectName ${Buffer.from(name).toString('base64')}`,
        },
      });
      expect(tooBig.status).toBe(413);
      await upload(mp3, options(alice, name));
      expect(statusOf(await upload(mp3, options(alice, name)).catch((e: unknown) => e))).toBe(409);
    });

    it('refuses bytes that are not audio once they are all there, and keeps nothing', async () => {
      const name = `${alice.id}/${Date.now()}_image.mp3`;
      const error = await upload(pngBytes(100_000), options(alice, name)).catch((e: unknown) => e);
      expect(statusOf(error)).toBe(415);
      expect(await stored(name)).toBeNull();
    });
  });
});
