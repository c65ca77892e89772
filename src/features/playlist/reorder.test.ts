// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { applyOrder, moveAnnouncement, moveItem, rowIndexAt } from './reorder';

describe('moveItem', () => {
  it('moves down and up', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 1)).toEqual(['a', 'd', 'b', 'c']);
  });

  it('clamps the target and ignores an unknown source', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 10)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, -3)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
  });

  it('returns a new array and keeps the input', () => {
    const list = ['a', 'b'];
    const moved = moveItem(list, 0, 0);
    expect(moved).toEqual(list);
    expect(moved).not.toBe(list);
  });
});

describe('applyOrder', () => {
  const items = ['a', 'b', 'c', 'd'].map((id) => ({ id }));
  it('orders by id list and keeps unknown items last in their order', () => {
    expect(applyOrder(items, ['c', 'a']).map((i) => i.id)).toEqual(['c', 'a', 'b', 'd']);
    expect(applyOrder(items, ['x', 'd']).map((i) => i.id)).toEqual(['d', 'a', 'b', 'c']);
  });
});

describe('rowIndexAt', () => {
  const rows = [
    { top: 0, bottom: 50 },
    { top: 50, bottom: 100 },
    { top: 100, bottom: 150 },
  ];
  it('finds the row under the pointer, clamping above and below', () => {
    expect(rowIndexAt(-20, rows)).toBe(0);
    expect(rowIndexAt(25, rows)).toBe(0);
    expect(rowIndexAt(75, rows)).toBe(1);
    expect(rowIndexAt(149, rows)).toBe(2);
    expect(rowIndexAt(400, rows)).toBe(2);
    expect(rowIndexAt(10, [])).toBe(0);
  });
});

it('moveAnnouncement is one-based', () => {
  expect(moveAnnouncement('Song', 0, 3)).toBe('Moved Song to position 1 of 3.');
});
