import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderAvatar, renderCover } from './art';
import { generatorKey, TrackCache } from './cache';
import { renderTrack, type SeedProcessed, type TrackAudio } from './media';
import { AUDIO_FORMAT, parseMp3 } from './mp3';
import { planSections } from './music/arrange';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('generated audio', () => {
  // One 30 s track (about a second of CPU per render): rendered twice, compared byte for byte.
  const job = { key: 't', genre: 'chiptune' as const, seconds: 30, seed: 'soundloft-demo/test' };
  let first: TrackAudio;
  beforeAll(async () => {
    first = await renderTrack(job);
  }, 60_000);

  // A whole track rendered again: seconds on a busy machine, so no 5 s default.
  it('is deterministic', { timeout: 60_000 }, async () => {
    expect(sha((await renderTrack(job)).mp3)).toBe(sha(first.mp3));
  });

  it('is a valid constant-bitrate MP3 of the expected length', () => {
    expect([first.mp3[0], (first.mp3[1] ?? 0) & 0xe0]).toEqual([0xff, 0xe0]);
    const info = parseMp3(first.mp3);
    expect(info).toMatchObject({
      layer: 3,
      version: 2,
      sampleRate: AUDIO_FORMAT.sampleRate,
      bitrateKbps: AUDIO_FORMAT.kbps,
      channels: 1,
      constantBitrate: true,
    });
    expect(info.durationSeconds).toBeGreaterThanOrEqual(30);
    expect(info.durationSeconds).toBeLessThanOrEqual(180);
    expect(Math.abs(info.durationSeconds - first.durationSeconds)).toBeLessThan(0.2);
  });

  it('has musical structure: phrases on bar starts, verse and chorus', () => {
    expect(first.phrases.length).toBeGreaterThan(3);
    for (const p of first.phrases) {
      const bars = p.t / first.barSeconds;
      expect(Math.abs(bars - Math.round(bars))).toBeLessThan(0.01);
    }
    expect(new Set(first.phrases.map((p) => p.kind))).toEqual(new Set(['verse', 'chorus']));
    expect(planSections(24)).toEqual([
      ...Array(4).fill('intro'),
      ...Array(8).fill('verse'),
      ...Array(8).fill('chorus'),
      ...Array(4).fill('outro'),
    ]);
  });

  it('refuses bytes that are not MPEG audio', () => {
    expect(() => parseMp3(new TextEncoder().encode('<html></html>'))).toThrow(/sync/);
  });
});

describe('generated artwork', () => {
  it('covers are 512×512 and avatars 256×256 RGB PNGs, small and deterministic', () => {
    const cover = renderCover('Midnight Transit', 'synthwave', 'cover/x');
    const decoded = PNG.sync.read(Buffer.from(cover)); // checks every chunk's CRC and inflates
    expect([decoded.width, decoded.height, decoded.depth, decoded.colorType]).toEqual([
      512, 512, 8, 2,
    ]);
    expect(cover.length).toBeLessThan(200_000);
    expect(sha(renderCover('Midnight Transit', 'synthwave', 'cover/x'))).toBe(sha(cover));
    const avatar = renderAvatar('Neon Harbor', 'avatar/x');
    expect(PNG.sync.read(Buffer.from(avatar))).toMatchObject({ width: 256, height: 256 });
  });
});

describe('track cache', () => {
  it('returns what was put, with what processing made, keyed by track and generator version', () => {
    const root = mkdtempSync(join(tmpdir(), 'seed-cache-test-'));
    try {
      const cache = new TrackCache(root);
      const mp3 = Uint8Array.from([0xff, 0xf3, 1, 2]);
      const processed: SeedProcessed = {
        format: 'mpeg',
        seconds: 31.4,
        sampleRate: 22050,
        channels: 1,
        lufs: -15.2,
        truePeakDb: -1.1,
        peaks: {
          version: 2,
          channels: 1,
          sample_rate: 22050,
          samples_per_pixel: 693,
          bits: 8,
          length: 2,
          data: [-3, 4, -100, 90],
        },
        standard: 'original',
        high: Uint8Array.from([0xff, 0xfb, 9]),
        lossless: false,
      };
      const audio: TrackAudio = {
        key: 'a/b',
        mp3,
        durationSeconds: 31.5,
        bpm: 100,
        barSeconds: 2.4,
        phrases: [{ t: 9.6, kind: 'verse' as const }],
        processed,
      };
      const job = { key: 'a/b', genre: 'folk' as const, seconds: 30, seed: 's' };
      expect(cache.get(job)).toBeNull();
      cache.put(job, audio);
      expect(new TrackCache(root).get(job)).toEqual(audio);
      expect(cache.get({ ...job, seconds: 31 })).toBeNull();
      // Unprocessed audio (rendered without workers) is not cached: the next start processes it.
      const other = { ...job, key: 'c/d' };
      cache.put(other, { ...audio, key: 'c/d', processed: null });
      expect(cache.get(other)).toBeNull();
      expect(cache.dir).toContain(generatorKey());
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
