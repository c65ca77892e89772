import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Track } from '@/data';
import { FIRST_ROWS, ROW_STEP } from '../explore-text';
import { useProgressiveRows } from './use-progressive-rows';

const tracks = (n: number, prefix = 't') =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, title: `${prefix} ${i}` }) as Track);

function renderRows(initial: readonly Track[], key: string) {
  const seen: number[] = [];
  const hook = renderHook(
    ({ list, listKey }) => {
      const result = useProgressiveRows(list, listKey);
      if (seen[seen.length - 1] !== result.rows.length) seen.push(result.rows.length);
      return result;
    },
    { initialProps: { list: initial, listKey: key } },
  );
  return { ...hook, seen };
}

describe('useProgressiveRows', () => {
  it('shows the first rows, then adds a step at a time until all are there', async () => {
    const list = tracks(FIRST_ROWS + ROW_STEP + 5);
    const { result, seen } = renderRows(list, '');
    await waitFor(() => expect(result.current.rows).toHaveLength(list.length));
    expect(result.current.rows).toEqual(list);
    expect(result.current.pending).toBe(false);
    expect(seen).toEqual([0, FIRST_ROWS, FIRST_ROWS + ROW_STEP, list.length]);
  });

  it('starts again from the first rows for a new search, not for a live update', async () => {
    const list = tracks(FIRST_ROWS + 10);
    const { result, rerender, seen } = renderRows(list, '');
    await waitFor(() => expect(result.current.rows).toHaveLength(list.length));

    const grown = [...tracks(1, 'new'), ...list];
    rerender({ list: grown, listKey: '' });
    await waitFor(() => expect(result.current.rows).toEqual(grown));
    expect(Math.min(...seen.slice(seen.indexOf(list.length)))).toBe(list.length);

    seen.length = 0;
    const other = tracks(FIRST_ROWS + 3, 'q');
    rerender({ list: other, listKey: 'q' });
    await waitFor(() => expect(result.current.rows).toEqual(other));
    expect(seen).toContain(FIRST_ROWS);
  });

  it('renders short lists whole and empty lists empty', async () => {
    const { result, rerender } = renderRows(tracks(3), '');
    await waitFor(() => expect(result.current.rows).toHaveLength(3));
    rerender({ list: [], listKey: 'zzz' });
    await waitFor(() => expect(result.current.rows).toHaveLength(0));
    expect(result.current.pending).toBe(false);
  });
});
