// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { testTrack } from '../db/test-track';
import { reuseUnchanged } from './track-search';

const track = testTrack;

describe('reuseUnchanged', () => {
  it('returns the previous array when a new read holds the same rows', () => {
    const prev = [track('b'), track('a')];
    expect(reuseUnchanged(prev, [track('b'), track('a')])).toBe(prev);
    expect(reuseUnchanged(undefined, prev)).toBe(prev);
  });

  it('keeps the objects of unchanged rows and takes changed, new and reordered ones', () => {
    const prev = [track('b'), track('a')];
    const changed = track('a', { plays: 3 });
    const next = reuseUnchanged(prev, [track('c'), track('b'), changed]);
    expect(next).not.toBe(prev);
    expect(next.map((t) => t.id)).toEqual(['c', 'b', 'a']);
    expect(next[1]).toBe(prev[0]);
    expect(next[2]).toBe(changed);
    const reordered = reuseUnchanged(prev, [track('a'), track('b')]);
    expect(reordered).toEqual([prev[1], prev[0]]);
    expect(reuseUnchanged(prev, [track('b')])).toEqual([prev[0]]);
  });

  it('compares every field', () => {
    const prev = [track('a')];
    expect(reuseUnchanged(prev, [track('a', { genre: 'Folk' })])).not.toBe(prev);
    expect(
      reuseUnchanged(prev, [track('a', { updatedAt: '2026-02-01T00:00:00.000Z' })])[0],
    ).not.toBe(prev[0]);
  });
});
