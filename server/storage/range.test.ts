import { describe, expect, it } from 'vitest';
import { parseRange } from './range';

describe('parseRange', () => {
  it.each([
    ['bytes=0-9', 100, { kind: 'range', range: { start: 0, end: 9 } }],
    ['bytes=90-', 100, { kind: 'range', range: { start: 90, end: 99 } }],
    ['bytes=-10', 100, { kind: 'range', range: { start: 90, end: 99 } }],
    ['bytes=-500', 100, { kind: 'range', range: { start: 0, end: 99 } }],
    ['bytes=50-500', 100, { kind: 'range', range: { start: 50, end: 99 } }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    ['bytes=9-0', 100, { kind: 'none' }],
    ['bytes=0-1,5-6', 100, { kind: 'none' }],
    ['items=0-1', 100, { kind: 'none' }],
    [undefined, 100, { kind: 'none' }],
  ])('%s of %i bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});
