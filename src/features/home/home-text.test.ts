// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { greetingName, timeAgo } from './home-text';

describe('greetingName', () => {
  it('takes the first name of the profile, then of the account, else Music Lover', () => {
    expect(greetingName('Lena Listener', 'Other Name')).toBe('Lena');
    expect(greetingName('  ', '  Pablo  Premium ')).toBe('Pablo');
    expect(greetingName(null, undefined)).toBe('Music Lover');
    expect(greetingName(undefined, 42)).toBe('Music Lover');
  });
});

describe('timeAgo', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  it('counts minutes, hours, days, then shows the date', () => {
    expect(timeAgo('2026-11-22T11:59:40Z', now)).toBe('just now');
    expect(timeAgo('2026-11-22T11:55:00Z', now)).toBe('5 min ago');
    expect(timeAgo('2026-11-22T09:00:00Z', now)).toBe('3 h ago');
    expect(timeAgo('2026-11-20T12:00:00Z', now)).toBe('2 d ago');
    expect(timeAgo('2026-10-12T12:00:00Z', now)).toBe('12 Oct');
    expect(timeAgo('not a date', now)).toBe('');
  });
});
