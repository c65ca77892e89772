/** HTTP byte ranges (RFC 9110 §14): one range per request; several ranges are answered whole. */
import type { ByteRange } from './object-store';

export type RangeResult =
  { kind: 'none' } | { kind: 'range'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * `Range: bytes=a-b | a- | -n` against an object of `size` bytes. Syntax errors and multiple
 * ranges are ignored (the whole object is sent), as RFC 9110 allows.
 */
export function parseRange(header: string | undefined | null, size: number): RangeResult {
  if (!header) return { kind: 'none' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return { kind: 'none' };
  const [, first = '', last = ''] = m;
  if (first === '' && last === '') return { kind: 'none' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'none' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', range: { start, end } };
}
