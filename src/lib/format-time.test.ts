// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatTime, formatTimeSpoken } from './format-time';

describe('formatTime', () => {
  it.each([
    [0, '0:00'],
    [5, '0:05'],
    [59.99, '0:59'],
    [60, '1:00'],
    [65, '1:05'],
    [599, '9:59'],
    [600, '10:00'],
    [3599, '59:59'],
    [3600, '1:00:00'],
    [3725, '1:02:05'],
  ])('%s s reads %s', (seconds, expected) => {
    expect(formatTime(seconds)).toBe(expected);
  });

  it.each([-3, Number.NaN, Number.POSITIVE_INFINITY])('%s reads 0:00', (seconds) => {
    expect(formatTime(seconds)).toBe('0:00');
  });
});

describe('formatTimeSpoken', () => {
  it.each([
    [0, '0 seconds'],
    [1, '1 second'],
    [65, '1 minute 5 seconds'],
    [120, '2 minutes'],
    [3661, '1 hour 1 minute 1 second'],
    [Number.NaN, '0 seconds'],
  ])('%s s reads %s', (seconds, expected) => {
    expect(formatTimeSpoken(seconds)).toBe(expected);
  });
});
