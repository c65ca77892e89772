// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  afterMove,
  applyOrder,
  isBehind,
  keyOf,
  moveAnnouncement,
  moveItem,
  rowIndexAt,
} from './reorder';

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

describe('afterMove / isBehind (moves shown before the mirror has them)', () => {
  const start = ['a', 'b', 'c', 'd'];

  it('keyOf: one string per order, as the live list is compared', () => {
    expect(keyOf(start)).toBe('a,b,c,d');
    expect(keyOf([])).toBe('');
  });

  it('quick moves: an order this list wrote itself, answered in between, keeps the newest', () => {
    const first = afterMove(null, keyOf(start), ['b', 'a', 'c', 'd']);
    // Second move before the mirror showed the first: computed from the shown order.
    const second = afterMove(first, keyOf(start), ['b', 'c', 'a', 'd']);
    const third = afterMove(second, keyOf(start), ['b', 'c', 'd', 'a']);
    // The live read now answers with the second write only: still behind, keep the third.
    expect(isBehind(third, 'b,c,a,d')).toBe(true);
    expect(isBehind(third, 'b,a,c,d')).toBe(true);
    expect(third.order).toEqual(['b', 'c', 'd', 'a']);
    // A move made now starts from the shown order and keeps the history.
    const fourth = afterMove(third, 'b,c,a,d', ['c', 'b', 'd', 'a']);
    expect(fourth.order).toEqual(['c', 'b', 'd', 'a']);
    expect(isBehind(fourth, 'b,c,d,a')).toBe(true);
  });

  it('caught up: the live order is the newest one, nothing pending is applied', () => {
    const moved = afterMove(null, keyOf(start), ['b', 'a', 'c', 'd']);
    expect(isBehind(moved, 'b,a,c,d')).toBe(false);
  });

  it('a change from elsewhere drops the moves shown here, and the next move starts afresh', () => {
    const moved = afterMove(null, keyOf(start), ['b', 'a', 'c', 'd']);
    expect(isBehind(moved, 'd,c,b,a')).toBe(false);
    expect(afterMove(moved, 'd,c,b,a', ['c', 'd', 'b', 'a'])).toEqual({
      order: ['c', 'd', 'b', 'a'],
      behind: ['d,c,b,a'],
    });
  });
});
