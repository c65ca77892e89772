// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { sameValue } from './same-value';

describe('sameValue', () => {
  it('compares rows by content', () => {
    const row = () => ({ id: 'a', title: 'T', tags: ['x', 'y'], meta: { n: 1, at: null } });
    expect(sameValue([row(), row()], [row(), row()])).toBe(true);
    expect(sameValue(row(), { ...row(), title: 'U' })).toBe(false);
    expect(sameValue(row(), { ...row(), tags: ['x'] })).toBe(false);
    expect(sameValue(row(), { ...row(), meta: { n: 1, at: 0 } })).toBe(false);
  });

  it('tells a missing key, an extra key and an undefined value apart', () => {
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameValue({ a: 1, b: undefined }, { a: 1, c: undefined })).toBe(false);
  });

  it('handles primitives, NaN, arrays against objects, and dates', () => {
    expect(sameValue(NaN, NaN)).toBe(true);
    expect(sameValue(0, '0')).toBe(false);
    expect(sameValue([], {})).toBe(false);
    expect(sameValue({}, [])).toBe(false);
    expect(sameValue(null, {})).toBe(false);
    expect(sameValue(new Date(5), new Date(5))).toBe(true);
    expect(sameValue(new Date(5), new Date(6))).toBe(false);
    expect(sameValue(new Date(5), { getTime: () => 5 })).toBe(false);
  });
});
