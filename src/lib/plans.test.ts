// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAN, PLANS, formatUploadLimit, getPlan, planNameOf } from './plans';

describe('plans (DECISIONS.md)', () => {
  it('prices are Free 0, Basic 4.99, Premium 9.99 EUR', () => {
    expect(PLANS.map((p) => [p.id, p.priceEur])).toEqual([
      ['free', '0.00'],
      ['basic', '4.99'],
      ['premium', '9.99'],
    ]);
  });

  it('monthly upload limits are 50, 100 and unlimited', () => {
    expect(PLANS.map(formatUploadLimit)).toEqual(['50', '100', 'Unlimited']);
  });

  it('only Premium downloads for offline, only Free shows ads', () => {
    expect(PLANS.filter((p) => p.offlineDownloads).map((p) => p.id)).toEqual(['premium']);
    expect(PLANS.filter((p) => p.ads).map((p) => p.id)).toEqual(['free']);
  });

  it('audio quality is standard 128, high 320, lossless', () => {
    expect(PLANS.map((p) => [p.audioQuality.kbps, p.audioQuality.lossless])).toEqual([
      [128, false],
      [320, false],
      [null, true],
    ]);
  });

  it('the default plan is free and unknown plans are refused', () => {
    expect(getPlan(DEFAULT_PLAN).name).toBe('Free');
    expect(() => getPlan('gold' as never)).toThrow('Unknown plan: gold');
  });

  it('planNameOf names a stored plan id, and the default plan (Free) for none or an unknown one', () => {
    expect(planNameOf('premium')).toBe('Premium');
    expect(planNameOf('basic')).toBe('Basic');
    expect(planNameOf('free')).toBe('Free');
    expect(planNameOf(null)).toBe('Free');
    expect(planNameOf(undefined)).toBe('Free');
    expect(planNameOf('gold')).toBe('Free');
  });
});
