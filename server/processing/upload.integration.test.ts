/**
 * The upload path through supabase-js, as the app drives it: the audio into the tracks bucket,
 * the track row, processing on real worker threads, then what each plan may fetch. Bad input is
 * refused with a clear error and leaves nothing behind.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MPEGDecoder } from 'mpg123-decoder';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../db/test-database';
import type { TestUser } from '../db/test-factories';
import { pngBytes, SVG } from '../storage/test-files';
import { UNREADABLE_AUDIO } from './inspect';
import { makeFlac, makeMp3, makeOgg, makeWav, synthSignal } from './test-fixtures';
import { startUploadHarness, type UploadHarness } from './test-support';

let h: UploadHarness;
let artist: TestUser;
beforeAll(async () => {
  h = await startUploadHarness();
  artist = await h.newUser('free');
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(() => h?.close(), DATABASE_HOOK_TIMEOUT_MS);

const signal = synthSignal(4);

async function uploadAudio(user: TestUser, bytes: Uint8Array, file = 'song.mp3') {
  const name = `${user.id}/${Date.now()}_${randomUUID().slice(0, 6)}_${file}`;
  const { error } = await h
    .client(user)
    .storage.from('tracks')
    .upload(name, bytes, { cacheControl: '3600', upsert: false, contentType: 'audio/mpeg' });
  return { name, error };
}

async function createTrack(
  user: TestUser,
  objectName: string,
  extra: Record<string, unknown> = {},
) {
  return h
    .client(user)
    .from('tracks')
    .insert({
      title: 'Night Drive',
      artist: 'The Uploader',
      album: null,
      genre: 'Synthwave',
      audio_url: `tracks/${objectName}`,
      uploaded_by: user.id,
      ...extra,
    })
    .select('id, status, processing_stage, duration')
    .single();
}

interface TrackState {
  id: string;
  status: string;
  processing_stage: string | null;
  status_reason: string | null;
  duration: number;
  qualities: string[];
  loudness_lufs: number | null;
  true_peak_db: number | null;
  original_format: string | null;
  audio_url: string;
}

async function settled(user: TestUser, id: string): Promise<TrackState> {
  await h.processing.idle();
  const { data, error } = await h
    .client(user)
    .from('tracks')
    .select(
      'id, status, processing_stage, status_reason, duration, qualities, loudness_lufs, true_peak_db, original_format, audio_url',
    )
    .eq('id', id)
    .single();
  expect(error).toBeNull();
  return data as TrackState;
}

async function decodedSeconds(bytes: Uint8Array) {
  const d = new MPEGDecoder();
  await d.ready;
  const r = d.decode(bytes);
  d.free();
  return r.samplesDecoded / r.sampleRate;
}

describe(
  `upload and processing through supabase-js (${testDatabaseKind()})`,
  { timeout: 180_000 },
  () => {
    const formats: [string, () => Promise<Uint8Array>, string, string[]][] = [
      ['MP3 320 kbps', () => makeMp3(signal, 320), 'mpeg', ['standard', 'high']],
      ['WAV', async () => makeWav(signal), 'wav', ['standard', 'high', 'lossless']],
      ['FLAC', () => makeFlac(signal), 'flac', ['standard', 'high', 'lossless']],
      // Vorbis quality 4 is about 128 kbps: a 320 kbps rendition would only be bigger, not better.
      ['Ogg Vorbis', () => makeOgg(signal), 'ogg', ['standard']],
    ];
    for (const [label, make, format, qualities] of formats) {
      it(`uploads, processes and plays back a ${label}`, async () => {
        const { name, error } = await uploadAudio(artist, await make(), `take.${format}`);
        expect(error).toBeNull();
        const created = await createTrack(artist, name, { duration: 9999 });
        expect(created.error).toBeNull();
        expect(created.data).toMatchObject({
          status: 'processing',
          processing_stage: 'queued',
          duration: 0,
        });
        const track = await settled(artist, created.data!.id);
        expect(track).toMatchObject({
          status: 'ready',
          processing_stage: null,
          duration: 4,
          original_format: format,
          qualities,
        });
        expect(track.loudness_lufs).toBeLessThan(-10);
        expect(track.true_peak_db).toBeLessThan(0);
        // Another (free) listener: the standard rendition plays, it really is 4 s of MP3.
        const listener = await h.newUser('free');
        const signed = await h
          .client(listener)
          .storage.from('renditions')
          .createSignedUrl(`${track.id}/standard.mp3`, 60);
        expect(signed.error).toBeNull();
        const res = await fetch(signed.data!.signedUrl);
        expect(res.headers.get('content-type')).toBe('audio/mpeg');
        expect(await decodedSeconds(new Uint8Array(await res.arrayBuffer()))).toBeCloseTo(4, 0);
        const waveform = await h
          .client(listener)
          .from('track_waveforms')
          .select('length, bits, data')
          .eq('track_id', track.id)
          .single();
        expect(waveform.data?.length).toBeGreaterThan(900);
        expect(waveform.data?.data).toHaveLength((waveform.data?.length ?? 0) * 2);
      });
    }

    it('gives each plan its quality and nothing above it', async () => {
      const { name } = await uploadAudio(artist, makeWav(signal), 'master.wav');
      const { data } = await createTrack(artist, name);
      const track = await settled(artist, data!.id);
      const canSign = async (plan: 'free' | 'basic' | 'premium', bucket: string, path: string) => {
        const user = await h.newUser(plan);
        const { error } = await h.client(user).storage.from(bucket).createSignedUrl(path, 60);
        return error === null;
      };
      const high = `${track.id}/high.mp3`;
      const original = track.audio_url.replace(/^tracks\//, '');
      expect(await canSign('free', 'renditions', high)).toBe(false);
      expect(await canSign('free', 'tracks', original)).toBe(false);
      expect(await canSign('basic', 'renditions', high)).toBe(true);
      expect(await canSign('basic', 'tracks', original)).toBe(false);
      expect(await canSign('premium', 'tracks', original)).toBe(true);
      const anon = await h
        .client()
        .storage.from('renditions')
        .createSignedUrl(`${track.id}/standard.mp3`, 60);
      expect(anon.error).not.toBeNull();
    });

    it('hides a track from listeners until it is ready', async () => {
      const { name } = await uploadAudio(artist, makeWav(synthSignal(8)), 'long.wav');
      const { data } = await createTrack(artist, name);
      const listener = await h.newUser('free');
      const seen = await h.client(listener).from('tracks').select('id').eq('id', data!.id);
      expect(seen.data).toEqual([]);
      await settled(artist, data!.id);
      const later = await h.client(listener).from('tracks').select('id').eq('id', data!.id);
      expect(later.data).toEqual([{ id: data!.id }]);
    });

    it('fails a file that does not decode with the spec’s message and removes it', async () => {
      const mp3 = await makeMp3(signal, 128);
      const truncated = mp3.subarray(0, 300);
      const { name, error } = await uploadAudio(artist, truncated, 'cut.mp3');
      expect(error).toBeNull();
      const { data } = await createTrack(artist, name);
      const track = await settled(artist, data!.id);
      expect(track).toMatchObject({
        status: 'failed',
        status_reason: UNREADABLE_AUDIO,
        qualities: [],
      });
      const left = await h.client(artist).storage.from('tracks').exists(name);
      expect(left.data).toBe(false);
    });

    /** Neither a row in storage.objects nor bytes in the store: the refusal left nothing. */
    async function expectNothingStored(bucket: string, name: string) {
      const rows = await h.db.query(
        'select 1 from storage.objects where bucket_id = $1 and name = $2',
        [bucket, name],
      );
      expect(rows.rows, `${bucket}/${name}`).toEqual([]);
      expect(await h.store.size(bucket, name), `${bucket}/${name}`).toBeNull();
    }

    it('refuses bad files at the door: an executable, 50 MB + 1 byte, an SVG cover, a cover in the audio bucket, another user’s folder; nothing is stored', async () => {
      const elf = new Uint8Array(4096);
      elf.set([0x7f, 0x45, 0x4c, 0x46]);
      const renamed = await uploadAudio(artist, elf, 'song.mp3');
      expect(renamed.error).toMatchObject({ statusCode: '415' });
      expect(renamed.error?.message).toMatch(/mime type .* is not supported/i);
      await expectNothingStored('tracks', renamed.name);

      const huge = new Uint8Array(50 * 1024 * 1024 + 1);
      huge.set(await makeMp3(signal, 128));
      const tooBig = await uploadAudio(artist, huge, 'huge.mp3');
      expect(tooBig.error).toMatchObject({ statusCode: '413' });
      expect(tooBig.error?.message).toMatch(/exceeded the maximum allowed size/i);
      await expectNothingStored('tracks', tooBig.name);

      const svgName = `${artist.id}/${Date.now()}_c.svg`;
      const svg = await h
        .client(artist)
        .storage.from('covers')
        .upload(svgName, SVG, { contentType: 'image/svg+xml' });
      expect(svg.error).toMatchObject({ statusCode: '415' });
      await expectNothingStored('covers', svgName);

      const cover = await uploadAudio(artist, pngBytes(), 'cover.png');
      expect(cover.error).toMatchObject({ statusCode: '415' });
      await expectNothingStored('tracks', cover.name);

      const other = await h.newUser();
      const othersName = `${artist.id}/x_${Date.now()}.mp3`;
      const intoOthers = await h
        .client(other)
        .storage.from('tracks')
        .upload(othersName, await makeMp3(signal, 128));
      expect(intoOthers.error).toMatchObject({ statusCode: '403' });
      await expectNothingStored('tracks', othersName);
    });

    it('refuses a track row pointing at someone else’s object, and a forged plays count: no row is made', async () => {
      const { name } = await uploadAudio(artist, await makeMp3(signal, 128), 'mine.mp3');
      const thief = await h.newUser();
      const stolen = await createTrack(thief, name);
      expect(stolen.error).toMatchObject({
        code: '23503',
        message: 'Audio file not found. Please upload it again.',
      });
      const forged = await createTrack(artist, name, { plays: 1000 });
      expect(forged.error).toMatchObject({ code: '42501' });
      const rows = await h.db.query('select id from public.tracks where audio_url = $1', [
        `tracks/${name}`,
      ]);
      expect(rows.rows).toEqual([]);
      // The owner's object is untouched by the thief's attempt.
      expect(await h.store.size('tracks', name)).toBeGreaterThan(0);
    });

    it('never keeps a forged duration, plays count or verified flag: the server measures and owns them', async () => {
      const { name } = await uploadAudio(artist, makeWav(signal), 'forged.wav');
      // At insert: the duration sent is replaced (0 until measured), verified is refused.
      const created = await createTrack(artist, name, { duration: 3600 });
      expect(created.data).toMatchObject({ duration: 0 });
      const verified = await createTrack(artist, name, { verified: true });
      expect(verified.error).not.toBeNull();
      const track = await settled(artist, created.data!.id);
      expect(track.duration).toBe(4);
      // Afterwards: the owner can edit the details but not what the server owns.
      const client = h.client(artist);
      for (const forged of [{ duration: 3600 }, { plays: 1_000_000 }, { verified: true }]) {
        const { error } = await client.from('tracks').update(forged).eq('id', track.id);
        expect(error, JSON.stringify(forged)).not.toBeNull();
      }
      const { data } = await client
        .from('tracks')
        .select('duration, plays, verified')
        .eq('id', track.id)
        .single();
      expect(data).toMatchObject({ duration: 4, verified: false });
      expect(Number(data?.plays)).toBe(0);
    });

    it('enforces the monthly limit in the database; two uploads racing for the last slot: one wins', async () => {
      const user = await h.newUser('free');
      await h.db.query(
        `update profiles set monthly_uploads = 49, monthly_uploads_month = date_trunc('month', now() at time zone 'utc')::date where id = $1`,
        [user.id],
      );
      const a = await uploadAudio(user, await makeMp3(signal, 128), 'a.mp3');
      const b = await uploadAudio(user, await makeMp3(signal, 128), 'b.mp3');
      const results = await Promise.all([createTrack(user, a.name), createTrack(user, b.name)]);
      const errors = results.map((r) => r.error?.message ?? null);
      expect(errors.filter((e) => e === null)).toHaveLength(1);
      expect(errors).toContain(
        'You have reached your monthly upload limit. Upgrade your plan to upload more tracks.',
      );
    });

    it('removes a deleted track’s files: original and renditions', async () => {
      const { name } = await uploadAudio(artist, makeWav(signal), 'gone.wav');
      const { data } = await createTrack(artist, name);
      const track = await settled(artist, data!.id);
      expect(await h.store.size('renditions', `${track.id}/standard.mp3`)).toBeGreaterThan(0);
      const del = await h.client(artist).from('tracks').delete().eq('id', track.id);
      expect(del.error).toBeNull();
      await h.processing.idle();
      expect(await h.store.size('renditions', `${track.id}/standard.mp3`)).toBeNull();
      expect(await h.store.size('renditions', `${track.id}/high.mp3`)).toBeNull();
      expect(await h.store.size('tracks', name)).toBeNull();
      const rows = await h.db.query(
        'select name from storage.objects where name like $1 or name = $2',
        [`${track.id}/%`, name],
      );
      expect(rows.rows).toEqual([]);
    });
  },
);
