/**
 * Playback by plan through supabase-js, as the player does it: `createSignedUrl` on the
 * renditions (or, for premium, the lossless original), then the audio fetched with Range
 * requests. The signed token names the user it was made for; the storage app reports what it
 * served to whom (the seam issue 23 counts plays from).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../db/test-database';
import type { TestUser } from '../db/test-factories';
import { publicObjectPath } from '../storage/service';
import { makeWav, synthSignal } from './test-fixtures';
import { startUploadHarness, type UploadHarness } from './test-support';
import { sameBytes } from '../storage/test-files';

// The renditions and originals in memory and on S3 (docs/object-storage.md): the same answers.
describe.each(['memory', 's3'] as const)('%s', (backend) => {
  let h: UploadHarness;
  let trackId: string;
  let original: string;
  let wav: Uint8Array;

  beforeAll(async () => {
    h = await startUploadHarness({}, backend);
    const artist = await h.newUser('free');
    wav = makeWav(synthSignal(4));
    original = `${artist.id}/${Date.now()}_${randomUUID().slice(0, 6)}_master.wav`;
    const client = h.client(artist);
    const up = await client.storage.from('tracks').upload(original, wav, { upsert: false });
    expect(up.error).toBeNull();
    const { data, error } = await client
      .from('tracks')
      .insert({
        title: 'Master',
        artist: 'A',
        audio_url: `tracks/${original}`,
        uploaded_by: artist.id,
      })
      .select('id')
      .single();
    expect(error).toBeNull();
    trackId = data!.id as string;
    await h.processing.idle();
  }, DATABASE_HOOK_TIMEOUT_MS + 120_000);
  afterAll(() => h?.close(), DATABASE_HOOK_TIMEOUT_MS);

  const claimsOf = (signedUrl: string) => {
    const token = new URL(signedUrl).searchParams.get('token') ?? '';
    return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      url: string;
      sub?: string;
      exp: number;
    };
  };

  const sign = (user: TestUser | undefined, bucket: string, path: string) =>
    h.client(user).storage.from(bucket).createSignedUrl(path, 600);

  describe(
    `playback by plan through signed URLs (${testDatabaseKind()}, bytes in ${backend})`,
    { timeout: 60_000 },
    () => {
      it('a free listener: the original is refused, the standard rendition plays with Range (206)', async () => {
        const listener = await h.newUser('free');
        const refused = await sign(listener, 'tracks', original);
        expect(refused.error).toMatchObject({ message: 'Object not found' });
        expect((await sign(listener, 'renditions', `${trackId}/high.mp3`)).error).not.toBeNull();

        const { data, error } = await sign(listener, 'renditions', `${trackId}/standard.mp3`);
        expect(error).toBeNull();
        expect(data!.signedUrl).toContain(
          `/storage/v1/object/sign/renditions/${trackId}/standard.mp3?token=`,
        );
        expect(claimsOf(data!.signedUrl)).toMatchObject({
          url: `renditions/${trackId}/standard.mp3`,
          sub: listener.id,
        });

        const whole = new Uint8Array(await (await fetch(data!.signedUrl)).arrayBuffer());
        const part = await fetch(data!.signedUrl, { headers: { Range: 'bytes=1000-1999' } });
        expect(part.status).toBe(206);
        expect(part.headers.get('content-type')).toBe('audio/mpeg');
        expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${whole.length}`);
        expect(new Uint8Array(await part.arrayBuffer())).toEqual(whole.subarray(1000, 2000));
        expect(h.signedReads.at(-1)).toEqual({
          sub: listener.id,
          bucket: 'renditions',
          name: `${trackId}/standard.mp3`,
          download: false,
          device: null,
          start: 1000,
          end: 1999,
          size: whole.length,
        });
      });

      it('a premium listener gets the lossless original; nobody gets it through a public URL', async () => {
        const premium = await h.newUser('premium');
        const { data, error } = await sign(premium, 'tracks', original);
        expect(error).toBeNull();
        expect(claimsOf(data!.signedUrl).sub).toBe(premium.id);
        const res = await fetch(data!.signedUrl);
        expect(res.status).toBe(200);
        expect(sameBytes(await res.arrayBuffer(), wav)).toBe(true);

        const open = await fetch(`${h.url}${publicObjectPath('tracks', original)}`);
        expect(open.status).toBe(400);
        expect(await open.json()).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
      });

      it("the waveform read the app makes (src/data/remote/waveform-remote.ts): a listener's and anon's", async () => {
        const read = (user?: TestUser) =>
          h
            .client(user)
            .from('track_waveforms')
            .select('data,length,bits')
            .eq('track_id', trackId)
            .maybeSingle();
        for (const user of [await h.newUser('free'), undefined]) {
          const { data, error } = await read(user);
          expect(error).toBeNull();
          expect(data?.bits).toBe(8);
          expect(data!.length).toBeGreaterThan(900);
          expect(data!.data).toHaveLength(data!.length * 2);
          expect(Math.max(...(data!.data as number[]))).toBeGreaterThan(10);
        }
      });

      it('anon cannot sign a rendition', async () => {
        expect(
          (await sign(undefined, 'renditions', `${trackId}/standard.mp3`)).error,
        ).not.toBeNull();
      });
    },
  );
});
