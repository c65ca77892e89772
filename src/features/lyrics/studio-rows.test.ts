// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { normaliseLyricLines } from '@/data';
import {
  addRow,
  removeRow,
  rowsFromLines,
  rowsFromLrc,
  rowsToLines,
  updateRow,
} from './studio-rows';

describe('studio rows', () => {
  it('start with one empty line when there are no lyrics', () => {
    const rows = rowsFromLines(null);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ text: '', time: '00:00' });
  });

  it('show saved lines as mm:ss', () => {
    const rows = rowsFromLines([
      { id: 'a', text: 'One', timestamp: 7.38 },
      { id: 'b', text: 'Two', timestamp: 65, annotation: 'note' },
    ]);
    expect(rows.map((r) => r.time)).toEqual(['00:07.38', '01:05']);
    expect(rows[1]?.annotation).toBe('note');
  });

  it('a new line defaults to 4 s after the previous one', () => {
    let rows = rowsFromLines([{ id: 'a', text: 'One', timestamp: 10 }]);
    rows = addRow(rows);
    expect(rows[1]?.time).toBe('00:14');
    rows = addRow(rows, 0);
    expect(rows.map((r) => r.time)).toEqual(['00:10', '00:14', '00:14']);
    rows = updateRow(rows, 2, { time: 'nonsense' });
    rows = addRow(rows);
    expect(rows[3]?.time).toBe('00:04');
  });

  it('always keeps at least one line', () => {
    const one = rowsFromLines([{ id: 'a', text: 'Only', timestamp: 3 }]);
    const after = removeRow(one, 0);
    expect(after).toHaveLength(1);
    expect(after[0]?.text).toBe('');
    const two = addRow(one);
    expect(removeRow(two, 0).map((r) => r.time)).toEqual(['00:07']);
  });

  it('timestamps: mm:ss or seconds; invalid and negative become 0', () => {
    const rows = ['01:30', '95.5', 'abc', '-3', 'Infinity'].map((time, i) => ({
      id: String(i),
      text: `line ${i}`,
      time,
    }));
    expect(rowsToLines(rows).map((l) => l.timestamp)).toEqual([90, 95.5, 0, 0, 0]);
  });

  it('save keeps trimmed non-blank lines sorted by time', () => {
    const rows = [
      { id: 'a', text: '  later  ', time: '00:20' },
      { id: 'b', text: '   ', time: '00:05' },
      { id: 'c', text: 'first', time: '3' },
    ];
    expect(normaliseLyricLines(rowsToLines(rows)).map((l) => [l.text, l.timestamp])).toEqual([
      ['first', 3],
      ['later', 20],
    ]);
  });

  it('LRC lines become rows', () => {
    expect(rowsFromLrc([{ text: 'x', timestamp: 61.5 }]).map((r) => r.time)).toEqual(['01:01.50']);
    expect(rowsFromLrc([])).toHaveLength(1);
  });
});
