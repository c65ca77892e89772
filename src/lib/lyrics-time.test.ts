import { describe, expect, it } from 'vitest';
import {
  currentLineIndex,
  formatTimestamp,
  hasTimings,
  parseTimestamp,
  roundTimestamp,
} from './lyrics-time';

describe('parseTimestamp', () => {
  it.each([
    ['01:05', 65],
    ['1:05', 65],
    ['00:07.38', 7.38],
    ['12.5', 12.5],
    ['90', 90],
    ['  2:00 ', 120],
    ['1:02:03', 3723],
    [' ', 0],
    ['', 0],
    ['abc', 0],
    ['1:75', 0],
    ['-5', 0],
    ['-1:00', 0],
    ['Infinity', 0],
    ['NaN', 0],
    ['1e400', 0],
  ])('%j → %d', (input, expected) => {
    expect(parseTimestamp(input)).toBeCloseTo(expected, 5);
  });

  it('numbers: non-finite and negative become 0', () => {
    expect(parseTimestamp(Number.NaN)).toBe(0);
    expect(parseTimestamp(Number.POSITIVE_INFINITY)).toBe(0);
    expect(parseTimestamp(-3)).toBe(0);
    expect(parseTimestamp(4.5)).toBe(4.5);
    expect(parseTimestamp(null)).toBe(0);
  });
});

describe('formatTimestamp', () => {
  it('mm:ss, with hundredths only when present', () => {
    expect(formatTimestamp(0)).toBe('00:00');
    expect(formatTimestamp(65)).toBe('01:05');
    expect(formatTimestamp(7.38)).toBe('00:07.38');
    expect(formatTimestamp(7.384999)).toBe('00:07.38');
    expect(formatTimestamp(59.999)).toBe('01:00');
    expect(formatTimestamp(-2)).toBe('00:00');
    expect(formatTimestamp(Number.NaN)).toBe('00:00');
  });

  it('round-trips through parseTimestamp', () => {
    for (const t of [0, 1, 7.38, 65.5, 599.99, 3600]) {
      expect(parseTimestamp(formatTimestamp(t))).toBeCloseTo(t, 2);
    }
  });

  it('roundTimestamp keeps hundredths', () => {
    expect(roundTimestamp(1.23456)).toBe(1.23);
    expect(roundTimestamp(-1)).toBe(0);
  });
});

describe('currentLineIndex', () => {
  const lines = [{ timestamp: 2 }, { timestamp: 5 }, { timestamp: 5 }, { timestamp: 9 }];
  it('is the line whose window holds the time', () => {
    expect(currentLineIndex(lines, 0)).toBe(-1);
    expect(currentLineIndex(lines, 2)).toBe(0);
    expect(currentLineIndex(lines, 4.99)).toBe(0);
    expect(currentLineIndex(lines, 5)).toBe(2);
    expect(currentLineIndex(lines, 100)).toBe(3);
    expect(currentLineIndex([], 3)).toBe(-1);
  });

  it('hasTimings: all zero is plain text', () => {
    expect(hasTimings([{ timestamp: 0 }, { timestamp: 0 }])).toBe(false);
    expect(hasTimings(lines)).toBe(true);
  });
});
