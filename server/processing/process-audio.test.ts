/**
 * The processing of each format on real worker threads (the pool the server uses): decode,
 * peaks, loudness and renditions, and refusals of what is not audio.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { MPEGDecoder } from 'mpg123-decoder';
import { ProcessingPool } from './worker-pool';
import { AudioRejected, UNREADABLE_AUDIO } from './inspect';
import { makeFlac, makeMp3, makeOgg, makeWav, synthSignal } from './test-fixtures';
import { encodeMp3 } from './encode-mp3';

const pool = new ProcessingPool(2);
afterAll(() => pool.close());

async function mp3Info(bytes: Uint8Array) {
  const d = new MPEGDecoder();
  await d.ready;
  const r = d.decode(bytes);
  d.free();
  return { seconds: r.samplesDecoded / r.sampleRate, sampleRate: r.sampleRate };
}

describe('processAudio on the worker pool', { timeout: 120_000 }, () => {
  const signal = synthSignal(6);

  it('processes a WAV: lossless original, 128 and 320 kbps renditions, peaks, loudness', async () => {
    const stages: string[] = [];
    const result = await pool.process(makeWav(signal), (stage) => stages.push(stage));
    expect([...new Set(stages)]).toEqual([
      'checking',
      'decoding',
      'waveform',
      'loudness',
      'encoding',
    ]);
    expect(result).toMatchObject({ format: 'wav', lossless: true, sampleRate: 44100, channels: 2 });
    expect(result.seconds).toBeCloseTo(6, 2);
    expect(result.standard).toBeInstanceOf(Uint8Array);
    expect(result.high).toBeInstanceOf(Uint8Array);
    const standard = result.standard as Uint8Array;
    const high = result.high as Uint8Array;
    // CBR sizes: bitrate × duration (within the encoder's padding).
    expect(standard.length / ((128_000 / 8) * 6)).toBeCloseTo(1, 1);
    expect(high.length / ((320_000 / 8) * 6)).toBeCloseTo(1, 1);
    expect((await mp3Info(high)).seconds).toBeCloseTo(6, 1);
    expect(result.peaks.length).toBeGreaterThan(900);
    expect(result.peaks.length).toBeLessThanOrEqual(1000);
    expect(result.peaks.data).toHaveLength(result.peaks.length * 2);
    expect(Math.max(...result.peaks.data)).toBeGreaterThan(20);
    expect(result.lufs).toBeLessThan(-10);
    expect(result.lufs).toBeGreaterThan(-30);
    expect(result.truePeakDb).toBeLessThan(0);
  });

  it('measures a -23 dBFS 1 kHz stereo sine at -23 LUFS (EBU Tech 3341 case 1)', async () => {
    const sampleRate = 48000;
    const sine = new Float32Array(sampleRate * 20);
    const amplitude = 10 ** (-23 / 20);
    for (let i = 0; i < sine.length; i++)
      sine[i] = amplitude * Math.sin((2 * Math.PI * 1000 * i) / sampleRate);
    const result = await pool.process(
      makeWav({ channelData: [sine, sine.slice()], sampleRate }, '24'),
    );
    expect(result.lufs).toBeCloseTo(-23, 0);
    expect(result.truePeakDb).toBeCloseTo(-23, 0);
  });

  it('keeps a 320 kbps MP3 as the high rendition and encodes the standard one', async () => {
    const original = await makeMp3(signal, 320);
    const result = await pool.process(original);
    expect(result).toMatchObject({ format: 'mpeg', lossless: false, high: 'original' });
    expect(result.standard).toBeInstanceOf(Uint8Array);
  });

  it('keeps a 128 kbps MP3 as the standard rendition and makes no high one', async () => {
    const result = await pool.process(await makeMp3(signal, 128));
    expect(result).toMatchObject({ standard: 'original', high: null, lossless: false });
  });

  it('keeps a mono MP3 mono (mpg123 decodes it to two equal channels): same loudness as its WAV', async () => {
    const mono = synthSignal(6, { channels: 1 });
    const fromMp3 = await pool.process(await makeMp3(mono, 128));
    const fromWav = await pool.process(makeWav(mono));
    expect(fromMp3).toMatchObject({ format: 'mpeg', channels: 1, standard: 'original' });
    expect(fromWav).toMatchObject({ channels: 1 });
    expect(fromMp3.lufs).toBeCloseTo(fromWav.lufs as number, 0);
  });

  it('processes FLAC (lossless) and Ogg Vorbis (lossy)', async () => {
    const flac = await pool.process(await makeFlac(signal));
    expect(flac).toMatchObject({ format: 'flac', lossless: true, channels: 2 });
    expect(flac.seconds).toBeCloseTo(6, 2);
    expect(flac.high).toBeInstanceOf(Uint8Array);
    const ogg = await pool.process(await makeOgg(signal));
    expect(ogg).toMatchObject({ format: 'ogg', lossless: false, channels: 2 });
    expect(ogg.seconds).toBeCloseTo(6, 1);
    expect(ogg.standard).toBeInstanceOf(Uint8Array);
  });

  it('processes Ogg Opus (opusenc 96 kbps, 48 kHz): decoded by libopus, a 128 kbps rendition', async () => {
    // Made with opus-tools from the 3 s stereo chord of test-fixtures.ts (docs/upload.md, Tests).
    const opus = new Uint8Array(readFileSync(new URL('./fixtures/chord-3s.opus', import.meta.url)));
    const result = await pool.process(opus);
    expect(result).toMatchObject({
      format: 'ogg',
      lossless: false,
      sampleRate: 48000,
      channels: 2,
      high: null, // 96 kbps: nothing to gain at 320
    });
    expect(result.seconds).toBeCloseTo(3, 1);
    expect(result.standard).toBeInstanceOf(Uint8Array);
    expect((await mp3Info(result.standard as Uint8Array)).seconds).toBeCloseTo(3, 1);
    // The same music as its WAV: the same loudness within half a unit.
    const wav = await pool.process(makeWav(synthSignal(3)));
    expect(result.lufs).toBeCloseTo(wav.lufs as number, 0);
    expect(result.peaks.length).toBeGreaterThan(900);
  });

  it('refuses a truncated Ogg file (Opus or Vorbis): cut inside a page, or at a page boundary', async () => {
    const opus = new Uint8Array(readFileSync(new URL('./fixtures/chord-3s.opus', import.meta.url)));
    const vorbis = await makeOgg(signal);
    const pageStart = (bytes: Uint8Array, after: number) =>
      Buffer.from(bytes).indexOf('OggS', after, 'latin1');
    for (const [name, bytes] of [
      ['Opus, half', opus.subarray(0, opus.length / 2)],
      ['Opus, at a page', opus.subarray(0, pageStart(opus, opus.length / 2))],
      ['Vorbis, half', vorbis.subarray(0, vorbis.length / 2)],
    ] as const) {
      const error = await pool.process(bytes).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(AudioRejected);
    }
  });

  it('refuses what is not audio, a truncated WAV and a header with no frames', async () => {
    const wav = makeWav(signal);
    const cases: [string, Uint8Array][] = [
      [
        'an executable',
        new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(200).fill(0)]),
      ],
      ['a truncated WAV', wav.subarray(0, Math.floor(wav.length / 2))],
      [
        'an MP3 frame header and nothing else',
        (await encodeMp3(signal.channelData, 44100, 128)).subarray(0, 200),
      ],
    ];
    for (const [name, bytes] of cases) {
      const error = await pool.process(bytes).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(AudioRejected);
      expect((error as Error).message, name).toBe(UNREADABLE_AUDIO);
    }
  });
});
