import { describe, expect, it } from 'vitest';
import { createAdmin, type TestUser } from '../db/test-factories';
import {
  accessToken,
  STORAGE_BACKENDS,
  useHarnessWithTwoUsers,
  supabaseClient,
  type StorageHarness,
} from './test-support';
import { mp3Bytes, pngBytes } from './test-files';

describe.each(STORAGE_BACKENDS)('storage on %s', (backend) => {
  let h: StorageHarness;
  let alice: TestUser;
  let bob: TestUser;

  useHarnessWithTwoUsers(backend, (started) => ({ h, alice, bob } = started));

  const upload = async (user: TestUser, bucket: string, name: string, bytes = mp3Bytes()) => {
    const { error } = await h.client(user).storage.from(bucket).upload(name, bytes, {
      contentType: 'application/octet-stream',
    });
    expect(error).toBeNull();
  };
  /** The status of a read by the uploader (the tracks bucket is private). */
  const ownerStatus = async (bucket: string, name: string) =>
    (
      await fetch(`${h.url}/storage/v1/object/${bucket}/${name}`, {
        headers: { Authorization: `Bearer ${h.tokenFor(alice)}` },
      })
    ).status;

  describe('list, remove, move, copy', () => {
    it('lists one folder level: folders as name-only entries among the files', async () => {
      await upload(alice, 'tracks', `${alice.id}/b.mp3`);
      await upload(alice, 'tracks', `${alice.id}/a.mp3`);
      await upload(alice, 'tracks', `${alice.id}/album/c.mp3`);
      // Originals are private: the uploader lists her own folder; others see nothing.
      expect((await h.client(bob).storage.from('tracks').list(alice.id)).data).toEqual([]);
      const storage = h.client(alice).storage.from('tracks');
      const { data, error } = await storage.list(alice.id);
      expect(error).toBeNull();
      expect(data?.map((o) => o.name)).toEqual(['a.mp3', 'album', 'b.mp3']);
      expect(data?.[1]).toMatchObject({ id: null, metadata: null });
      expect(data?.[0]?.metadata).toMatchObject({
        mimetype: 'audio/mpeg',
        size: mp3Bytes().length,
      });
      const root = await storage.list('', { limit: 100 });
      expect(root.data?.map((o) => o.name)).toContain(alice.id);
      const searched = await storage.list(alice.id, { search: 'b' });
      expect(searched.data?.map((o) => o.name)).toEqual(['b.mp3']);
      const paged = await storage.list(alice.id, { limit: 1, offset: 1 });
      expect(paged.data?.map((o) => o.name)).toEqual(['album']);
      const desc = await storage.list(alice.id, { sortBy: { column: 'name', order: 'desc' } });
      expect(desc.data?.map((o) => o.name)).toEqual(['b.mp3', 'album', 'a.mp3']);
    });

    it('removes only what the caller may delete', async () => {
      await upload(alice, 'tracks', `${alice.id}/gone.mp3`);
      const byBob = await h
        .client(bob)
        .storage.from('tracks')
        .remove([`${alice.id}/gone.mp3`]);
      expect(byBob).toMatchObject({ data: [], error: null });
      expect(await ownerStatus('tracks', `${alice.id}/gone.mp3`)).toBe(200);
      const byAlice = await h
        .client(alice)
        .storage.from('tracks')
        .remove([`${alice.id}/gone.mp3`]);
      expect(byAlice.data?.map((o) => o.name)).toEqual([`${alice.id}/gone.mp3`]);
      expect(await ownerStatus('tracks', `${alice.id}/gone.mp3`)).toBe(400);
      expect(await h.store.size('tracks', `${alice.id}/gone.mp3`)).toBeNull();
    });

    it('lets an admin delete any file (policy), never anon', async () => {
      await upload(alice, 'covers', `${alice.id}/flagged.png`, pngBytes());
      const anon = await h
        .client()
        .storage.from('covers')
        .remove([`${alice.id}/flagged.png`]);
      expect(anon.data).toEqual([]);
      const admin = await createAdmin(h.db);
      const client = supabaseClient(h.url, h.keys.anonKey, accessToken(h.keys, admin));
      const res = await client.storage.from('covers').remove([`${alice.id}/flagged.png`]);
      expect(res.data).toHaveLength(1);
    });

    it('moves and copies inside the own folder; never into another user folder', async () => {
      await upload(alice, 'tracks', `${alice.id}/draft.mp3`);
      const storage = h.client(alice).storage.from('tracks');
      expect(
        (await storage.move(`${alice.id}/draft.mp3`, `${alice.id}/final.mp3`)).error,
      ).toBeNull();
      expect(await ownerStatus('tracks', `${alice.id}/draft.mp3`)).toBe(400);
      expect(await ownerStatus('tracks', `${alice.id}/final.mp3`)).toBe(200);
      const copied = await storage.copy(`${alice.id}/final.mp3`, `${alice.id}/copy.mp3`);
      expect(copied).toMatchObject({ data: { path: `tracks/${alice.id}/copy.mp3` }, error: null });
      expect(await ownerStatus('tracks', `${alice.id}/copy.mp3`)).toBe(200);
      const dup = await storage.copy(`${alice.id}/final.mp3`, `${alice.id}/copy.mp3`);
      expect(dup.error).toMatchObject({ statusCode: '409' });
      const steal = await storage.move(`${alice.id}/final.mp3`, `${bob.id}/final.mp3`);
      expect(steal.error).toMatchObject({ statusCode: '403' });
      const byBob = await h
        .client(bob)
        .storage.from('tracks')
        .move(`${alice.id}/final.mp3`, `${bob.id}/mine.mp3`);
      expect(byBob.error).toMatchObject({ statusCode: '404' });
      const toCovers = await storage.move(`${alice.id}/final.mp3`, `${alice.id}/final.mp3`, {
        destinationBucket: 'covers',
      });
      expect(toCovers.error).toMatchObject({ statusCode: '415' });
      expect(await ownerStatus('tracks', `${alice.id}/final.mp3`)).toBe(200);
    });

    it('lists buckets and answers errors in Storage shape', async () => {
      const { data } = await h.client().storage.listBuckets();
      expect(data?.map((b) => b.id)).toEqual([
        'avatars',
        'covers',
        'exports',
        'renditions',
        'stems',
        'tracks',
      ]);
      const bucket = await h.client().storage.getBucket('tracks');
      expect(bucket.data).toMatchObject({ public: false, file_size_limit: 50 * 1024 * 1024 });
      const missing = await h
        .client(alice)
        .storage.from('nope')
        .upload(`${alice.id}/x.mp3`, mp3Bytes());
      expect(missing.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
      const badJwt = await fetch(`${h.url}/storage/v1/object/list/tracks`, {
        method: 'POST',
        headers: { Authorization: 'Bearer not.a.jwt', 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(badJwt.status).toBe(400);
      expect(await badJwt.json()).toMatchObject({ statusCode: '403', error: 'Unauthorized' });
      const preflight = await fetch(`${h.url}/storage/v1/object/tracks/x`, {
        method: 'OPTIONS',
        headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
      });
      expect(preflight.status).toBeLessThan(300);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    });
  });
});
