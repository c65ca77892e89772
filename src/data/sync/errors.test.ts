// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelay } from './errors';

describe('Retry-After (tests/faults found it ignored)', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-27T18:00:00Z');
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('Fri, 27 Nov 2026 18:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Fri, 27 Nov 2026 17:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
  });

  it('waits at least what the server asked, at most 60 s, else the backoff', () => {
    const noJitter = () => 0;
    expect(retryDelay(0, {}, noJitter)).toBe(200);
    expect(retryDelay(0, { retryAfterMs: 1000 }, noJitter)).toBe(1000);
    expect(retryDelay(4, { retryAfterMs: 1000 }, noJitter)).toBe(3200);
    expect(retryDelay(0, { retryAfterMs: 3_600_000 }, noJitter)).toBe(60_000);
  });
});
