// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  dbToGain,
  normalisationGainDb,
  normalisedVolume,
  PEAK_CEILING_DBTP,
  TARGET_LUFS,
} from './loudness';

describe('normalisationGainDb', () => {
  it('turns a loud master down to -14 LUFS', () => {
    expect(normalisationGainDb(-8, -0.2)).toBeCloseTo(-6);
    expect(normalisationGainDb(-14, -1)).toBe(0);
  });

  it('lifts a quiet track toward -14 LUFS while its peak has room', () => {
    expect(normalisationGainDb(-20, -10)).toBeCloseTo(6);
  });

  it('never lifts the true peak above -1 dBTP', () => {
    // -20 LUFS wants +6 dB, but a peak at -4 dBTP has 3 dB of room.
    expect(normalisationGainDb(-20, -4)).toBeCloseTo(3);
    // A track already peaking above the ceiling is turned down to it, even when quiet.
    expect(normalisationGainDb(-18, 0.5)).toBeCloseTo(-1.5);
    for (const [lufs, peak] of [
      [-30, -20],
      [-23, -1],
      [-14, 0],
      [-9, 1.2],
      [-16, -2.5],
    ] as const) {
      const gain = normalisationGainDb(lufs, peak);
      expect(peak + gain).toBeLessThanOrEqual(PEAK_CEILING_DBTP + 1e-9);
      expect(lufs + gain).toBeLessThanOrEqual(TARGET_LUFS + 1e-9);
    }
  });

  it('leaves an unmeasured track alone; without a peak it only turns down', () => {
    expect(normalisationGainDb(null, null)).toBe(0);
    expect(normalisationGainDb(undefined, -3)).toBe(0);
    expect(normalisationGainDb(Number.NaN, -3)).toBe(0);
    expect(normalisationGainDb(-20, null)).toBe(0);
    expect(normalisationGainDb(-10, null)).toBeCloseTo(-4);
  });
});

describe('normalisedVolume', () => {
  it('multiplies the volume by the gain, never above full scale or below silence', () => {
    expect(dbToGain(-6)).toBeCloseTo(0.501, 3);
    expect(normalisedVolume(0.7, 0)).toBe(0.7);
    expect(normalisedVolume(0.7, -6)).toBeCloseTo(0.351, 3);
    expect(normalisedVolume(0.5, 3)).toBeCloseTo(0.706, 3);
    expect(normalisedVolume(0.9, 6)).toBe(1);
    expect(normalisedVolume(0, 6)).toBe(0);
  });
});
