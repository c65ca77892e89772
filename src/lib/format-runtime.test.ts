// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatRuntime, totalDuration } from './format-runtime';

describe('formatRuntime', () => {
  it.each([
    [0, '0h 00m'],
    [245, '0h 04m'],
    [29, '0h 00m'],
    [30, '0h 01m'],
    [59 * 60, '0h 59m'],
    [3600, '1h 00m'],
    [3900, '1h 05m'],
    [3600 * 12 + 60 * 7 + 10, '12h 07m'],
    [3599.9, '1h 00m'],
  ])('%s s → %s', (seconds, expected) => {
    expect(formatRuntime(seconds)).toBe(expected);
  });

  it('treats negative and non-numbers as zero', () => {
    expect(formatRuntime(-5)).toBe('0h 00m');
    expect(formatRuntime(Number.NaN)).toBe('0h 00m');
    expect(formatRuntime(Number.POSITIVE_INFINITY)).toBe('0h 00m');
  });
});

describe('totalDuration', () => {
  it('sums durations and skips missing ones', () => {
    expect(totalDuration([{ duration: 120 }, { duration: 125 }, { duration: null }])).toBe(245);
    expect(totalDuration([])).toBe(0);
  });
});
