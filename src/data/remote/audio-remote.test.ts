import { describe, expect, it, vi } from 'vitest';
import {
  audioCandidates,
  createAudioSource,
  isUnreachable,
  PREPARE_BATCH,
  signBestAudio,
  SIGNED_AUDIO_SECONDS,
  type AudioSigner,
} from './audio-remote';

const track = (qualities?: ('standard' | 'high' | 'lossless')[]) => ({
  id: 't1',
  audioUrl: 'tracks/u1/1_song.wav',
  ...(qualities ? { qualities } : {}),
});

/** The server's answer as storage-js returns it: a URL where the plan allows, null elsewhere. */
const serverFor =
  (granted: string[]): AudioSigner =>
  async (bucket, paths) =>
    paths.map((p) => (granted.includes(`${bucket}/${p}`) ? `/sign/${bucket}/${p}?token=x` : null));

describe('audioCandidates', () => {
  it('lists what the track has, best first', () => {
    expect(audioCandidates(track(['standard', 'high', 'lossless']))).toEqual([
      { bucket: 'tracks', path: 'u1/1_song.wav', quality: 'lossless' },
      { bucket: 'renditions', path: 't1/high.mp3', quality: 'high' },
      { bucket: 'renditions', path: 't1/standard.mp3', quality: 'standard' },
    ]);
    expect(audioCandidates(track(['standard']))).toEqual([
      { bucket: 'renditions', path: 't1/standard.mp3', quality: 'standard' },
    ]);
    // A row made before the pipeline: only its original.
    expect(audioCandidates(track([]))).toEqual([
      { bucket: 'tracks', path: 'u1/1_song.wav', quality: 'original' },
    ]);
    expect(audioCandidates(track())?.map((c) => c.quality)).toEqual([
      'original',
      'high',
      'standard',
    ]);
  });

  it('reads the public URL form of older rows, and plays other URLs as they are', () => {
    const old = {
      id: 't1',
      audioUrl: '/storage/v1/object/public/tracks/u1/1_a%20b.mp3',
      qualities: [],
    };
    expect(audioCandidates(old)?.[0]?.path).toBe('u1/1_a b.mp3');
    expect(audioCandidates({ id: 'x', audioUrl: '/audio/demo.mp3' })).toBeNull();
  });
});

describe('signBestAudio', () => {
  const all = track(['standard', 'high', 'lossless']);
  it('takes the best the server signs for the plan', async () => {
    const free = serverFor(['renditions/t1/standard.mp3']);
    const basic = serverFor(['renditions/t1/standard.mp3', 'renditions/t1/high.mp3']);
    const premium = serverFor([
      'renditions/t1/standard.mp3',
      'renditions/t1/high.mp3',
      'tracks/u1/1_song.wav',
    ]);
    expect((await signBestAudio(all, free)).quality).toBe('standard');
    expect((await signBestAudio(all, basic)).quality).toBe('high');
    expect(await signBestAudio(all, premium)).toEqual({
      url: '/sign/tracks/u1/1_song.wav?token=x',
      quality: 'lossless',
    });
  });

  it('asks once per bucket', async () => {
    const sign = vi.fn(serverFor([]));
    await expect(signBestAudio(all, sign)).rejects.toThrow('This track is not available to you.');
    expect(sign.mock.calls.map((c) => [c[0], c[1], c[2]])).toEqual([
      ['tracks', ['u1/1_song.wav'], SIGNED_AUDIO_SECONDS],
      ['renditions', ['t1/high.mp3', 't1/standard.mp3'], SIGNED_AUDIO_SECONDS],
    ]);
  });
});

describe('createAudioSource', () => {
  it('reuses a signed URL until shortly before it expires, and retries after a failure', async () => {
    let now = 0;
    const sign = vi.fn(serverFor(['renditions/t1/standard.mp3']));
    const source = createAudioSource(sign, () => now);
    const t = track(['standard']);
    expect(await source(t)).toBe('/sign/renditions/t1/standard.mp3?token=x');
    await source(t);
    expect(sign).toHaveBeenCalledTimes(1);
    now = SIGNED_AUDIO_SECONDS * 1000 - 5 * 60 * 1000;
    await source(t);
    expect(sign).toHaveBeenCalledTimes(2);

    const flaky = vi.fn<AudioSigner>().mockRejectedValueOnce(new Error('offline'));
    flaky.mockImplementation(serverFor(['renditions/t1/standard.mp3']));
    const again = createAudioSource(flaky, () => 0);
    await expect(again(t)).rejects.toThrow('offline');
    expect(await again(t)).toBe('/sign/renditions/t1/standard.mp3?token=x');
  });
});

describe('isUnreachable', () => {
  it("is true for a fetch that reached nothing (storage-js's wrapped TypeError)", () => {
    const wrapped = Object.assign(new Error('Failed to fetch'), {
      name: 'StorageUnknownError',
      originalError: new TypeError('Failed to fetch'),
    });
    expect(isUnreachable(wrapped)).toBe(true);
    expect(isUnreachable(new TypeError('Failed to fetch'))).toBe(true);
    expect(isUnreachable(new Error('This track is not available to you.'))).toBe(false);
  });
});

describe('createAudioSource.prepare', () => {
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `t${i}`,
      audioUrl: `tracks/u1/${i}_song.mp3`,
      qualities: ['standard', 'high'] as ('standard' | 'high')[],
    }));

  it('signs a list ahead in one request per bucket; a click on it then signs nothing', async () => {
    const tracks = many(3);
    // The plan grants standard only: high is refused, so each track gets its standard URL.
    const sign = vi.fn(serverFor(tracks.map((t) => `renditions/${t.id}/standard.mp3`)));
    const source = createAudioSource(sign, () => 0);
    source.prepare(tracks);
    expect(sign).toHaveBeenCalledTimes(1);
    expect(sign.mock.calls[0]?.[1]).toHaveLength(6);
    expect(await source(tracks[1]!)).toBe('/sign/renditions/t1/standard.mp3?token=x');
    source.prepare(tracks);
    expect(sign).toHaveBeenCalledTimes(1);
  });

  it('signs at most a batch, skips what is fresh, and forgets what the server refused', async () => {
    const tracks = many(PREPARE_BATCH + 5);
    const sign = vi.fn(serverFor(['renditions/t0/standard.mp3']));
    const source = createAudioSource(sign, () => 0);
    source.prepare(tracks);
    expect(sign.mock.calls[0]?.[1]).toHaveLength(PREPARE_BATCH * 2);
    await expect(source(tracks[3]!)).rejects.toThrow('This track is not available to you.');
    expect(await source(tracks[0]!)).toBe('/sign/renditions/t0/standard.mp3?token=x');
    // The refused one is asked again (alone) on the next request; t0 is not.
    await source(tracks[3]!).catch(() => undefined);
    expect(sign).toHaveBeenCalledTimes(2);
    expect(sign.mock.calls[1]?.[1]).toEqual(['t3/high.mp3', 't3/standard.mp3']);
  });
});
