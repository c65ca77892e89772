/**
 * Nothing is left behind when a track is refused (docs/upload.md): at the monthly limit the audio
 * itself is refused by Storage (supabase-js and tus-js-client, as the app sends it); an original
 * that lost the race for the last slot is swept once it is a day old, and nothing else is: not
 * a track's original, its renditions, a cover, nor a fresh upload whose track is still coming.
 * Nobody can use either to remove another user's files.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Upload } from 'tus-js-client';
import { asRole } from '../db/as-role';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../db/test-database';
import type { TestUser } from '../db/test-factories';
import { pngBytes } from '../storage/test-files';
import { makeMp3, synthSignal } from './test-fixtures';
import { startUploadHarness, type UploadHarness } from './test-support';

const LIMIT_REACHED =
  'You have reached your monthly upload limit. Upgrade your plan to upload more tracks.';

let h: UploadHarness;
let mp3: Uint8Array;
beforeAll(async () => {
  // The sweep looks every 100 ms here; the grace period stays the real one (24 h): the tests
  // age objects in the database instead of shortening it.
  h = await startUploadHarness({ orphanSweepMs: 100 });
  mp3 = await makeMp3(synthSignal(2, { channels: 1 }), 128);
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(() => h?.close(), DATABASE_HOOK_TIMEOUT_MS);

async function userWith(plan: 'free' | 'basic' | 'premium', uploads: number): Promise<TestUser> {
  const user = await h.newUser(plan);
  await h.db.query(
    `update public.profiles set monthly_uploads = $2,
            monthly_uploads_month = date_trunc('month', now() at time zone 'utc')::date
      where id = $1`,
    [user.id, uploads],
  );
  return user;
}

const nameFor = (user: TestUser, file: string) =>
  `${user.id}/${Date.now()}_${randomUUID().slice(0, 6)}_${file}`;

async function upload(user: TestUser, bucket = 'tracks', bytes = mp3, file = 'take.mp3') {
  const name = nameFor(user, file);
  const { error } = await h
    .client(user)
    .storage.from(bucket)
    .upload(name, bytes, { cacheControl: '3600', upsert: false });
  return { name, error };
}

/** tus-js-client as the upload page drives it; resolves to the refusal's status (0: stored). */
function tusUpload(user: TestUser, name: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const u = new Upload(Buffer.from(mp3), {
      endpoint: `${h.url}/storage/v1/upload/resumable`,
      retryDelays: [],
      headers: {
        authorization: `Bearer ${h.tokenFor(user)}`,
        apikey: h.keys.anonKey,
        'x-upsert': 'false',
      },
      uploadDataDuringCreation: true,
      metadata: {
        bucketName: 'tracks',
        objectName: name,
        contentType: 'audio/mpeg',
        cacheControl: '3600',
      },
      chunkSize: 64 * 1024,
      onError: (error) => {
        const response = (
          error as { originalResponse?: { getStatus(): number; getBody(): string } }
        ).originalResponse;
        resolve({ status: response?.getStatus() ?? -1, body: response?.getBody() ?? '' });
      },
      onSuccess: () => resolve({ status: 0, body: '' }),
    });
    u.start();
  });
}

async function insertTrack(user: TestUser, objectName: string) {
  return h
    .client(user)
    .from('tracks')
    .insert({
      title: 'Last Slot',
      artist: 'The Uploader',
      audio_url: `tracks/${objectName}`,
      uploaded_by: user.id,
    })
    .select('id')
    .single();
}

async function atLimit(user: TestUser): Promise<boolean | null> {
  const { data, error } = await h.client(user).rpc('caller_at_upload_limit');
  expect(error).toBeNull();
  return data as boolean | null;
}

/** The row in storage.objects and the bytes in the store, both (true) or neither (false). */
async function stored(bucket: string, name: string): Promise<boolean> {
  const rows = await h.db.query(
    'select 1 from storage.objects where bucket_id = $1 and name = $2',
    [bucket, name],
  );
  const bytes = await h.store.size(bucket, name);
  expect(rows.rows.length > 0, `${bucket}/${name}: row and bytes agree`).toBe(bytes !== null);
  return bytes !== null;
}

/** Makes the user's originals look uploaded `hours` ago. */
async function age(names: string[], hours: number) {
  await h.db.query(
    `update storage.objects set created_at = now() - make_interval(hours => $2)
      where bucket_id = 'tracks' and name = any($1::text[])`,
    [names, hours],
  );
}

/** Waits (on the condition, not a clock) until the sweep has been through the bucket. */
async function untilSwept(bucket: string, name: string) {
  await expect
    .poll(async () => stored(bucket, name), { timeout: 60_000, interval: 100 })
    .toBe(false);
  await h.processing.idle();
}

describe(
  `nothing left behind when a track is refused (${testDatabaseKind()})`,
  { timeout: 120_000 },
  () => {
    it('refuses audio at the monthly limit, through storage-js and TUS, and stores nothing', async () => {
      const free = await userWith('free', 50);
      expect(await atLimit(free)).toBe(true);
      const plain = await upload(free);
      expect(plain.error).toMatchObject({ statusCode: '403' });
      expect(await stored('tracks', plain.name)).toBe(false);

      const resumable = nameFor(free, 'resumable.mp3');
      const refused = await tusUpload(free, resumable);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatch(/row-level security/);
      expect(await stored('tracks', resumable)).toBe(false);

      // A copy of one of the artist's own originals is a new upload too.
      await h.db.query('update public.profiles set monthly_uploads = 0 where id = $1', [free.id]);
      const mine = await upload(free);
      expect(mine.error).toBeNull();
      await h.db.query('update public.profiles set monthly_uploads = 50 where id = $1', [free.id]);
      const copyName = nameFor(free, 'copy.mp3');
      const copy = await h.client(free).storage.from('tracks').copy(mine.name, copyName);
      expect(copy.error).toMatchObject({ statusCode: '403' });
      expect(await stored('tracks', copyName)).toBe(false);

      // The track insert says the same, with the spec's words.
      const row = await insertTrack(free, mine.name);
      expect(row.error?.message).toBe(LIMIT_REACHED);

      // Covers are not uploads of tracks: the limit does not touch them.
      const cover = await upload(free, 'covers', pngBytes(), 'cover.png');
      expect(cover.error).toBeNull();
    });

    it('lets each plan upload up to its limit: free 49 of 50, basic 99 of 100, premium any number', async () => {
      for (const [plan, uploads, allowed] of [
        ['free', 49, true],
        ['basic', 99, true],
        ['basic', 100, false],
        ['premium', 5000, true],
      ] as const) {
        const user = await userWith(plan, uploads);
        expect(await atLimit(user), `${plan} at ${uploads}`).toBe(!allowed);
        const tus = await tusUpload(user, nameFor(user, 'take.mp3'));
        expect(tus.status, `${plan} at ${uploads}`).toBe(allowed ? 0 : 403);
      }
    });

    it('sweeps the original that lost the race for the last slot once it is a day old, and nothing else', async () => {
      const artist = await userWith('free', 49);
      const a = await upload(artist, 'tracks', mp3, 'a.mp3');
      const b = await upload(artist, 'tracks', mp3, 'b.mp3');
      expect([a.error, b.error]).toEqual([null, null]);
      const results = await Promise.all([insertTrack(artist, a.name), insertTrack(artist, b.name)]);
      const winner = results[0].error ? b : a;
      const loser = results[0].error ? a : b;
      expect(results.map((r) => r.error?.message ?? null).sort()).toEqual([LIMIT_REACHED, null]);
      const trackId = (results[0].data ?? results[1].data)!.id;
      await h.processing.idle();
      expect(await stored('renditions', `${trackId}/standard.mp3`)).toBe(true);

      // Next month: a fresh upload whose track is not inserted yet, and a cover.
      await h.db.query('update public.profiles set monthly_uploads = 0 where id = $1', [artist.id]);
      const fresh = await upload(artist, 'tracks', mp3, 'fresh.mp3');
      const cover = await upload(artist, 'covers', pngBytes(), 'cover.png');
      expect([fresh.error, cover.error]).toEqual([null, null]);

      // A day later, the loser's original goes; the winner's (a track uses it) stays.
      await age([winner.name, loser.name], 25);
      await untilSwept('tracks', loser.name);
      expect(await stored('tracks', winner.name)).toBe(true);
      expect(await stored('renditions', `${trackId}/standard.mp3`)).toBe(true);
      expect(await stored('tracks', fresh.name)).toBe(true);
      expect(await stored('covers', cover.name)).toBe(true);
      const garbage = await h.db.query('select name from public.storage_garbage');
      expect(garbage.rows).toEqual([]);

      // An original uploaded less than a day ago stays even with no track: once a day-old one
      // (uploaded at the same time) is swept, the same sweep has looked at it.
      const sentinel = await upload(artist, 'tracks', mp3, 'sentinel.mp3');
      await age([fresh.name], 23);
      await age([sentinel.name], 25);
      await untilSwept('tracks', sentinel.name);
      expect(await stored('tracks', fresh.name)).toBe(true);
    });

    it('keeps an original a track points at even when it is queued as garbage', async () => {
      const artist = await userWith('free', 0);
      const { name } = await upload(artist);
      const created = await insertTrack(artist, name);
      expect(created.error).toBeNull();
      await h.processing.idle();
      await age([name], 48);
      await h.db.query(
        `insert into public.storage_garbage (bucket_id, name) values ('tracks', $1)`,
        [name],
      );
      h.processing.kick();
      await h.processing.idle();
      expect(await stored('tracks', name)).toBe(true);
      const garbage = await h.db.query('select 1 from public.storage_garbage where name = $1', [
        name,
      ]);
      expect(garbage.rows).toEqual([]);
    });

    // Two connections at once: PostgreSQL only (PGlite runs one transaction at a time, so the
    // interleaving cannot happen there).
    it.runIf(testDatabaseKind() === 'postgres')(
      'a track inserted while the sweep removes its original: the sweep waits for it and keeps the file',
      async () => {
        const artist = await userWith('free', 0);
        const { name } = await upload(artist);
        await age([name], 25);
        const blockedSweeps = async () =>
          Number(
            (
              await h.db.query<{ n: string }>(
                `select count(*) as n from pg_stat_activity
                where wait_event_type = 'Lock' and query like '%storage.objects%for update%'`,
              )
            ).rows[0]?.n ?? 0,
          );
        // The insert (as the artist, the app's way) holds its transaction open until the sweep,
        // which saw no track yet, waits on the object's row.
        await asRole(h.db, { role: 'authenticated', sub: artist.id }, async (tx) => {
          await tx.query(
            `insert into public.tracks (title, artist, audio_url, uploaded_by)
           values ('In Flight', 'The Uploader', $1, $2)`,
            [`tracks/${name}`, artist.id],
          );
          await expect.poll(blockedSweeps, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
        });
        await expect
          .poll(
            async () => (await h.db.query('select 1 from public.storage_garbage')).rows.length,
            {
              timeout: 60_000,
            },
          )
          .toBe(0);
        await h.processing.idle();
        expect(await stored('tracks', name)).toBe(true);
        const track = await h.db.query<{ status: string }>(
          'select status from public.tracks where audio_url = $1',
          [`tracks/${name}`],
        );
        expect(track.rows).toEqual([{ status: 'ready' }]);
      },
    );

    it('gives nobody a way to remove another user’s original or to learn their limit', async () => {
      const owner = await userWith('free', 0);
      const other = await userWith('free', 0);
      const orphan = await upload(owner);
      const used = await upload(owner);
      const track = await insertTrack(owner, used.name);
      expect(track.error).toBeNull();
      await h.processing.idle();

      const removed = await h.client(other).storage.from('tracks').remove([orphan.name, used.name]);
      expect(removed.data ?? []).toEqual([]);
      const deleted = await h
        .client(other)
        .from('tracks')
        .delete({ count: 'exact' })
        .eq('id', track.data!.id);
      expect(deleted.count ?? 0).toBe(0);
      // Pointing a track of one's own at it is refused (so is aging it: storage is not exposed).
      const stolen = await insertTrack(other, orphan.name);
      expect(stolen.error).toMatchObject({ code: '23503' });
      // The limit function answers for the caller only; the rule itself is not callable.
      const probe = await h.client(other).rpc(
        'upload_limit_reached' as never,
        {
          user_id: owner.id,
        } as never,
      );
      expect(probe.error).not.toBeNull();
      expect(await atLimit(other)).toBe(false);

      // A day later the owner's original with a track stays; the owner's orphan goes, as it should.
      await age([orphan.name, used.name], 25);
      await untilSwept('tracks', orphan.name);
      expect(await stored('tracks', used.name)).toBe(true);
      const anon = await h.client().rpc('caller_at_upload_limit');
      expect(anon.error).not.toBeNull();
    });
  },
);
