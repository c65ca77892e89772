/**
 * `spleeter` through supabase-js, as the app calls it, on the embedded server (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL) with the real job runner and the separator on a worker.
 */
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { MPEGDecoder } from 'mpg123-decoder';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../../../server/db/test-database';
import type { TestUser } from '../../../server/db/test-factories';
import {
  startFunctionsHarness,
  type FunctionsHarness,
} from '../../../server/functions/test-support';
import { makeMp3, makeWav, synthSignal } from '../../../server/processing/test-fixtures';
import { putObjectAsService } from '../../../server/storage/service';
import { serveApp } from '../../../server/storage/test-support';
import { Hono } from 'hono';
import { startStemJobs, type StemJobs } from '../../../server/stems/jobs';
import { FAILED_TO_SEPARATE, STEMS, TOO_MANY, type SpleeterAnswer } from './handler';

let h: FunctionsHarness;
let runner: StemJobs | null = null;
let artist: TestUser;
let listener: TestUser;
let other: TestUser;

beforeAll(async () => {
  h = await startFunctionsHarness();
  artist = await h.newUser();
  listener = await h.newUser();
  other = await h.newUser();
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(async () => {
  await runner?.close();
  await h?.close();
}, DATABASE_HOOK_TIMEOUT_MS);

/** A track whose original (bytes) is in the tracks bucket, as the upload pipeline leaves it. */
async function addTrack(bytes: Uint8Array, status: 'ready' | 'processing' = 'ready') {
  const name = `${artist.id}/${Date.now()}_${randomUUID().slice(0, 6)}.wav`;
  await putObjectAsService(h.db, h.store, {
    bucket: 'tracks',
    name,
    owner: artist.id,
    bytes,
    contentType: 'audio/wav',
  });
  const { rows } = await h.db.query<{ id: string }>(
    `insert into public.tracks (title, artist, duration, audio_url, uploaded_by, status)
     values ('Stems test', 'The Artist', 2, $1, $2, $3) returning id`,
    [`tracks/${name}`, artist.id, status],
  );
  return { id: rows[0]!.id, audioUrl: `${h.url}/storage/v1/object/public/tracks/${name}` };
}

async function invoke(client: SupabaseClient, audioUrl: unknown) {
  const { data, error } = await client.functions.invoke<SpleeterAnswer>('spleeter', {
    body: { audioUrl },
  });
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response;
    return { status: res.status, error: ((await res.json()) as { error: string }).error };
  }
  expect(error).toBeNull();
  return { status: 200, data: data! };
}

const jobs = async (trackId: string) =>
  (
    await h.db.query<{ state: string; attempts: number; separation_ms: number | null }>(
      'select state, attempts, separation_ms from public.stem_jobs where track_id = $1',
      [trackId],
    )
  ).rows;

/** Polls `done` (every 50 ms, no deadline of its own: the test's timeout bounds it). */
async function waitFor(done: () => Promise<boolean>) {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 50));
}

const wav = makeWav(synthSignal(2));
let song: { id: string; audioUrl: string };

describe('spleeter', { timeout: 120_000 }, () => {
  it('refuses a body without audioUrl, a URL that is no track, and a signed-out caller', async () => {
    song = await addTrack(wav);
    expect(await invoke(h.client(listener), 42)).toEqual({
      status: 400,
      error: 'audioUrl is required.',
    });
    expect(await invoke(h.client(listener), 'https://example.com/song.mp3')).toEqual({
      status: 404,
      error: 'Track not found',
    });
    expect(await invoke(h.client(listener), `tracks/${listener.id}/nothing.mp3`)).toEqual({
      status: 404,
      error: 'Track not found',
    });
    expect(await invoke(h.client(), song.audioUrl)).toEqual({
      status: 401,
      error: 'Not authenticated',
    });
    expect(await jobs(song.id)).toEqual([]);
  });

  it('refuses a track the caller may not play (not visible to them, or not by their plan)', async () => {
    const unreleased = await addTrack(wav, 'processing');
    expect(await invoke(h.client(listener), unreleased.audioUrl)).toEqual({
      status: 404,
      error: 'Track not found',
    });
    expect(await jobs(unreleased.id)).toEqual([]);
    // Visible (ready) but offered only in high quality, which a free listener's plan does not
    // include: no standard rendition to play, so no stems either. Its uploader may.
    const highOnly = await addTrack(wav);
    await h.db.query(`update public.tracks set qualities = '{high}' where id = $1`, [highOnly.id]);
    expect(await invoke(h.client(listener), highOnly.audioUrl)).toEqual({
      status: 403,
      error: 'You may not play this track.',
    });
    expect(await jobs(highOnly.id)).toEqual([]);
    expect((await invoke(h.client(artist), highOnly.audioUrl)).data?.state).toBe('queued');
    await h.db.query('delete from public.stem_jobs where track_id = $1', [highOnly.id]);
  });

  it('answers at once with the job state; concurrent requests for one track make one job', async () => {
    const answers = await Promise.all([
      invoke(h.client(listener), song.audioUrl),
      invoke(h.client(listener), song.audioUrl),
      invoke(h.client(other), `tracks/${song.audioUrl.split('/public/tracks/')[1]}`),
      invoke(h.client(artist), song.audioUrl),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(200); // 202 is a success for supabase-js
      expect(a.data).toMatchObject({ state: 'queued', stems: STEMS, progress: 0 });
    }
    expect(await jobs(song.id)).toMatchObject([{ state: 'queued', attempts: 0 }]);
  });

  it("bounds a user's separations in progress", async () => {
    // A user of their own (which of the concurrent callers above made song's job is a race):
    // two separations in progress are allowed, a third is not.
    const fan = await h.newUser();
    const first = await addTrack(wav);
    const second = await addTrack(wav);
    const third = await addTrack(wav);
    expect((await invoke(h.client(fan), first.audioUrl)).data?.state).toBe('queued');
    expect((await invoke(h.client(fan), second.audioUrl)).data?.state).toBe('queued');
    expect(await invoke(h.client(fan), third.audioUrl)).toEqual({
      status: 429,
      error: TOO_MANY,
    });
    expect(await jobs(third.id)).toEqual([]);
    // Someone else may still ask for it.
    expect((await invoke(h.client(other), third.audioUrl)).data?.state).toBe('queued');
  });

  it('separates on the server, stores four MP3 stems under the track, and reuses them', async () => {
    runner = startStemJobs({ db: h.db, store: h.store, workers: 1, pollMs: 50 });
    await runner.idle();
    const first = await invoke(h.client(listener), song.audioUrl);
    expect(first.data?.state).toBe('ready');
    const urls = (first.data as { stemUrls: string[] }).stemUrls;
    expect(urls).toHaveLength(4);
    STEMS.forEach((stem, i) => expect(urls[i]).toContain(`/stems/${song.id}/${stem}.mp3?token=`));
    const [done] = await jobs(song.id);
    expect(done).toMatchObject({ state: 'done', attempts: 1 });
    for (const url of urls) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('audio/mpeg');
      const decoder = new MPEGDecoder();
      await decoder.ready;
      const pcm = decoder.decode(new Uint8Array(await res.arrayBuffer()));
      decoder.free();
      expect(pcm.channelData).toHaveLength(2);
      expect(pcm.samplesDecoded / pcm.sampleRate).toBeGreaterThan(1.9);
    }
    // Cache hit: the second request answers ready at once, no new separation.
    const again = await invoke(h.client(other), song.audioUrl);
    expect(again.data?.state).toBe('ready');
    expect(await jobs(song.id)).toEqual([done]);
  });

  it('lets only those who may play the track read its stems', async () => {
    const name = `${song.id}/vocals.mp3`;
    const anon = await h.client().storage.from('stems').createSignedUrl(name, 60);
    expect(anon.error).not.toBeNull();
    const signedIn = await h.client(other).storage.from('stems').createSignedUrl(name, 60);
    expect(signedIn.error).toBeNull();
    const upload = await h
      .client(artist)
      .storage.from('stems')
      .upload(`${song.id}/evil.mp3`, new Uint8Array([0xff, 0xfb, 0x90, 0x00]));
    expect(upload.error).not.toBeNull();
  });

  it('takes over a running job whose runner stopped reporting, but not a live one', async () => {
    const stale = await addTrack(wav);
    const live = await addTrack(wav);
    // Two jobs "running" on a runner that is gone: one last heard of 3 minutes ago (stale after
    // 2), one 10 seconds ago (still its runner's).
    await h.db.query(
      `insert into public.stem_jobs (track_id, state, attempts, locked_by, locked_at)
       values ($1, 'running', 1, 'gone', now() - interval '3 minutes'),
              ($2, 'running', 1, 'gone', now() - interval '10 seconds')`,
      [stale.id, live.id],
    );
    expect((await invoke(h.client(listener), stale.audioUrl)).data?.state).toBe('running');
    runner!.kick();
    await waitFor(async () => (await jobs(stale.id))[0]?.state === 'done');
    expect((await jobs(stale.id))[0]).toMatchObject({ state: 'done', attempts: 2 });
    expect((await invoke(h.client(listener), stale.audioUrl)).data?.state).toBe('ready');
    expect((await jobs(live.id))[0]).toMatchObject({ state: 'running', attempts: 1 });
    await h.db.query('delete from public.stem_jobs where track_id = $1', [live.id]);
  });

  it("answers 'Failed to separate stems' when the separation fails, and tries again on request", async () => {
    // A WAV header with nothing decodable behind it: storage takes it, the decoder does not.
    const broken = new Uint8Array(wav.slice(0, 64));
    new DataView(broken.buffer).setUint32(40, 1_000_000, true);
    const bad = await addTrack(broken);
    expect((await invoke(h.client(artist), bad.audioUrl)).data?.state).toBe('queued');
    await runner!.idle();
    expect(await invoke(h.client(artist), bad.audioUrl)).toEqual({
      status: 200,
      data: expect.objectContaining({ state: 'queued' }),
    });
    await runner!.idle();
    expect((await jobs(bad.id))[0]).toMatchObject({ state: 'failed', attempts: 2 });
    expect(await invoke(h.client(artist), bad.audioUrl)).toMatchObject({ status: 200 });
    await runner!.idle();
    expect(await invoke(h.client(artist), bad.audioUrl)).toEqual({
      status: 500,
      error: FAILED_TO_SEPARATE,
    });
    expect((await jobs(bad.id))[0]).toMatchObject({ state: 'failed', attempts: 3 });
  });

  it('delegates to SEPARATOR_URL with the same contract when it is set', async () => {
    await runner!.close();
    // A stand-in for an external separator (none runs here): it fetches the signed original it
    // is given, answers 202 once, then four stem URLs of its own.
    const stem = new Uint8Array(await makeMp3(synthSignal(1), 128));
    const fetched: number[] = [];
    let asked = 0;
    const external = new Hono();
    external.post('/separate', async (c) => {
      const { audioUrl } = await c.req.json<{ audioUrl: string }>();
      const original = await fetch(audioUrl);
      fetched.push(original.status);
      if (++asked === 1) return c.json({ state: 'running', progress: 0.5 }, 202);
      return c.json({ stemUrls: STEMS.map((s) => `/stems/${s}.mp3`) });
    });
    external.get('/stems/:file', (c) => c.body(stem, 200, { 'Content-Type': 'audio/mpeg' }));
    const server = await serveApp(external);
    runner = startStemJobs({
      db: h.db,
      store: h.store,
      pollMs: 50,
      separatorUrl: `${server.url}/separate`,
      publicUrl: h.url,
      jwtSecret: h.keys.jwtSecret,
    });
    try {
      const track = await addTrack(wav);
      expect((await invoke(h.client(listener), track.audioUrl)).data?.state).toBe('queued');
      await runner.idle();
      const ready = await invoke(h.client(listener), track.audioUrl);
      expect(ready.data?.state).toBe('ready');
      expect(fetched).toEqual([200, 200]);
      const res = await fetch((ready.data as { stemUrls: string[] }).stemUrls[0]!);
      const got = new Uint8Array(await res.arrayBuffer());
      expect(got).toEqual(stem);
      const rows = await h.db.query('select separator from public.stem_jobs where track_id = $1', [
        track.id,
      ]);
      expect(rows.rows).toEqual([{ separator: 'external' }]);
    } finally {
      await server.close();
    }
  });
});
