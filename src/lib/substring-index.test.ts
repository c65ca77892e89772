// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createSubstringIndex,
  createSubstringIndexBuilder,
  fieldsContain,
  normaliseSearch,
} from './substring-index';

interface Item {
  id: number;
  title: string;
  artist: string;
  album: string | null;
  genre: string | null;
}

const fieldsOf = (t: Item) => [t.title, t.artist, t.album, t.genre];

/** The spec's filter, row by row: the reference the index must equal. */
function naive(items: readonly Item[], text: string): Item[] {
  const q = normaliseSearch(text);
  return q ? items.filter((t) => fieldsContain(fieldsOf(t), q)) : [...items];
}

/** Small alphabets make collisions (shared words, repeated letters) likely. */
const letters = fc.constantFrom(...'aAeEnNoOİıßΣσ9 -.*%_'.split(''), 'é', 'É', '𝐀');
const text = fc.array(letters, { maxLength: 14 }).map((a) => a.join(''));
const anyText = fc.oneof(text, fc.string({ maxLength: 12, unit: 'binary' }));
const item = (id: number) =>
  fc.record({
    id: fc.constant(id),
    title: anyText,
    artist: anyText,
    album: fc.option(anyText),
    genre: fc.option(anyText),
  });
const catalogue = fc
  .integer({ min: 0, max: 40 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => item(i))));

describe('createSubstringIndex', () => {
  it('finds exactly what the row-by-row filter finds, in the same order', () => {
    fc.assert(
      fc.property(
        catalogue,
        fc.array(anyText, { minLength: 1, maxLength: 6 }),
        (items, queries) => {
          const index = createSubstringIndex(items, fieldsOf);
          for (const q of queries) expect(index.search(q)).toEqual(naive(items, q));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('finds queries taken from the catalogue itself (substrings of its fields)', () => {
    fc.assert(
      fc.property(
        catalogue.filter((items) => items.length > 0),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        (items, pick, start, length) => {
          const fields = fieldsOf(items[pick % items.length] as Item).filter(
            (f): f is string => f !== null,
          );
          const field = fields[pick % fields.length] ?? '';
          const from = field.length ? start % field.length : 0;
          const q = field.slice(from, from + (length % 8) + 1).toUpperCase();
          const found = createSubstringIndex(items, fieldsOf).search(q);
          expect(found).toEqual(naive(items, q));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('is case-insensitive, trims, and returns everything for a blank query', () => {
    const items: Item[] = [
      { id: 1, title: 'Neon Lights', artist: 'Aurora Vale', album: null, genre: 'Synthwave' },
      { id: 2, title: 'Midnight', artist: 'The Neons', album: 'After Hours', genre: 'Pop' },
      { id: 3, title: 'Rain', artist: 'Kai', album: 'Blue Neon Skies', genre: null },
      { id: 4, title: 'Calm', artist: 'Kai', album: null, genre: 'Ambient' },
    ];
    const index = createSubstringIndex(items, fieldsOf);
    expect(index.search('  NEON ').map((t) => t.id)).toEqual([1, 2, 3]);
    expect(index.search('synth').map((t) => t.id)).toEqual([1]);
    expect(index.search('after hours').map((t) => t.id)).toEqual([2]);
    expect(index.search('on li').map((t) => t.id)).toEqual([1]);
    expect(index.search('   ')).toHaveLength(4);
    expect(index.search('zzz')).toEqual([]);
    expect(index.vocabulary).toBeGreaterThan(5);
  });

  it('sweeps in input order when most items match', () => {
    const items = Array.from({ length: 100 }, (_, i) => ({
      id: i,
      title: `Track ${99 - i}`,
      artist: 'A',
      album: null,
      genre: null,
    }));
    const index = createSubstringIndex(items, fieldsOf);
    expect(index.search('tr').map((t) => t.id)).toEqual(items.map((t) => t.id));
    expect(index.search('9').map((t) => t.id)).toEqual(naive(items, '9').map((t) => t.id));
  });
});

describe('createSubstringIndexBuilder', () => {
  it('answers exactly at every stage of the build, then is done', () => {
    fc.assert(
      fc.property(
        catalogue,
        fc.integer({ min: 1, max: 5 }),
        fc.array(anyText, { minLength: 1, maxLength: 4 }),
        (items, stepItems, queries) => {
          const builder = createSubstringIndexBuilder(items, fieldsOf, stepItems);
          expect(builder.indexed).toBe(0);
          for (;;) {
            for (const q of queries) expect(builder.index.search(q)).toEqual(naive(items, q));
            if (builder.done) break;
            const before = builder.indexed;
            builder.step(() => true);
            expect(builder.indexed).toBe(Math.min(items.length, before + stepItems));
          }
          expect(builder.step()).toBe(true);
          expect(builder.indexed).toBe(items.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stops when asked to yield and resumes where it stopped', () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      id: i,
      title: `Song ${i}`,
      artist: i % 2 ? 'Neon' : 'Kai',
      album: null,
      genre: null,
    }));
    const builder = createSubstringIndexBuilder(items, fieldsOf);
    expect(builder.step(() => true)).toBe(false);
    expect(builder.indexed).toBe(256);
    expect(builder.index.search('neon')).toEqual(naive(items, 'neon'));
    expect(builder.step()).toBe(true);
    expect(builder.index.search('song 99')).toEqual(naive(items, 'song 99'));
  });
});
