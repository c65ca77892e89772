/**
 * An in-memory index answering "which items have a field containing this text" (case-insensitive
 * substring search) without testing every item per query. Pure, dependency free; used by the
 * catalogue search (src/data/search) and its bench (bench/explore.ts). docs/search.md.
 *
 * How: every field is lower-cased and split into words (maximal runs of letters and digits). The
 * index maps each distinct word to the sorted ids of the items that contain it. If a text occurs
 * inside a field, each word-run of the text lies inside one word of that field, so the items
 * whose words contain the query's longest run are a complete candidate set. A query of a single
 * run needs no further check (a word containing it makes its field contain it); a query with
 * spaces or punctuation is checked against the candidates' fields. The vocabulary is much smaller
 * than the catalogue (and shrinks further as the query grows), so a keystroke costs a pass over
 * distinct words plus the matches, not a pass over every row.
 */

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** The words of `text` (maximal runs of letters and digits), by code point; ASCII fast path. */
function words(text: string): string[] {
  const out: string[] = [];
  let start = -1;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    let width = 1;
    let word: boolean;
    if (c < 128) word = (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    else {
      const cp = text.codePointAt(i) as number;
      if (cp > 0xffff) width = 2;
      word = WORD_CHAR.test(String.fromCodePoint(cp));
    }
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(text.slice(start, i));
      start = -1;
    }
    i += width;
  }
  if (start >= 0) out.push(text.slice(start));
  return out;
}

/** The search text as the index and the naive filter read it: trimmed, lower-cased. */
export function normaliseSearch(text: string): string {
  return text.trim().toLowerCase();
}

/** The reference predicate: does any field contain the (normalised, non-empty) query? */
export function fieldsContain(fields: readonly (string | null)[], normalised: string): boolean {
  return fields.some((f) => f !== null && f.toLowerCase().includes(normalised));
}

export interface SubstringIndex<T> {
  readonly size: number;
  /**
   * The items with a field containing `text` (trimmed, case-insensitive), in input order; every
   * item when `text` is blank.
   */
  search(text: string): T[];
  /** The number of distinct words (for figures). */
  readonly vocabulary: number;
}

/**
 * An index built a slice at a time (so a browser can build it between frames). Its `index`
 * answers exactly at every stage: items not indexed yet are checked row by row after the
 * indexed ones, so only the cost of a query changes as the build goes on, never its answer.
 */
export interface SubstringIndexBuilder<T> {
  /** How many items (from the start) are indexed. */
  readonly indexed: number;
  readonly done: boolean;
  /**
   * Indexes further items until all are done or `shouldYield()` returns true (asked after every
   * `stepItems` items, 256 by default). Returns `done`.
   */
  step(shouldYield?: () => boolean): boolean;
  readonly index: SubstringIndex<T>;
}

/** Items indexed between two `shouldYield` questions. */
const STEP_ITEMS = 256;

export function createSubstringIndexBuilder<T>(
  items: readonly T[],
  fieldsOf: (item: T) => readonly (string | null)[],
  stepItems = STEP_ITEMS,
): SubstringIndexBuilder<T> {
  const n = items.length;
  /** Lower-cased non-empty fields per indexed item. */
  const lowered: (readonly string[])[] = new Array<readonly string[]>(n);
  /** Distinct words in order of first sight, and for each the ascending ids containing it. */
  const vocabulary: string[] = [];
  const lists: number[][] = [];
  const postings = new Map<string, number[]>();
  /** Marks per item (the generation of the query that last marked it): no clearing per query. */
  const marks = new Uint32Array(n);
  let generation = 0;
  let indexed = 0;

  function indexOne(i: number) {
    const fields: string[] = [];
    for (const f of fieldsOf(items[i] as T)) if (f) fields.push(f.toLowerCase());
    lowered[i] = fields;
    for (const f of fields) {
      for (const word of words(f)) {
        const list = postings.get(word);
        if (!list) {
          const fresh = [i];
          postings.set(word, fresh);
          vocabulary.push(word);
          lists.push(fresh);
        } else if (list[list.length - 1] !== i) list.push(i);
      }
    }
  }

  const containsIn = (i: number, q: string) =>
    i < indexed
      ? (lowered[i] as string[]).some((f) => f.includes(q))
      : fieldsContain(fieldsOf(items[i] as T), q);

  /** Matches among the indexed items (`ids`, or the marks when many), then the rest by scan. */
  function collect(ids: number[] | null, check: string | null, q: string): T[] {
    const out: T[] = [];
    if (ids === null) {
      for (let i = 0; i < indexed; i++)
        if (marks[i] === generation && (check === null || containsIn(i, check)))
          out.push(items[i] as T);
    } else {
      ids.sort((a, b) => a - b);
      for (const i of ids) if (check === null || containsIn(i, check)) out.push(items[i] as T);
    }
    for (let i = indexed; i < n; i++) if (containsIn(i, q)) out.push(items[i] as T);
    return out;
  }

  const index: SubstringIndex<T> = {
    size: n,
    get vocabulary() {
      return vocabulary.length;
    },
    search(text) {
      const q = normaliseSearch(text);
      if (!q) return items.slice();
      const runs = words(q);
      if (runs.length === 0) {
        // Only spaces and punctuation: rare, answered by checking every item.
        return items.filter((_, i) => containsIn(i, q));
      }
      const run = runs.reduce((a, b) => (b.length > a.length ? b : a));
      generation = generation === 0xffffffff ? 1 : generation + 1;
      if (generation === 1) marks.fill(0);
      // Distinct candidate ids; sorted at the end when few, swept in order when many.
      const ids: number[] = [];
      let many = false;
      for (let w = 0; w < vocabulary.length; w++) {
        if (!(vocabulary[w] as string).includes(run)) continue;
        const list = lists[w] as number[];
        for (let k = 0; k < list.length; k++) {
          const i = list[k] as number;
          if (marks[i] === generation) continue;
          marks[i] = generation;
          if (!many) {
            ids.push(i);
            if (ids.length > n >>> 4) many = true;
          }
        }
      }
      const check = runs.length === 1 && run === q ? null : q;
      return collect(many ? null : ids, check, q);
    },
  };

  return {
    get indexed() {
      return indexed;
    },
    get done() {
      return indexed === n;
    },
    step(shouldYield) {
      while (indexed < n) {
        const end = Math.min(n, indexed + stepItems);
        for (let i = indexed; i < end; i++) indexOne(i);
        indexed = end;
        if (shouldYield?.()) break;
      }
      return indexed === n;
    },
    index,
  };
}

/** The whole index at once (benches, small inputs). */
export function createSubstringIndex<T>(
  items: readonly T[],
  fieldsOf: (item: T) => readonly (string | null)[],
): SubstringIndex<T> {
  const builder = createSubstringIndexBuilder(items, fieldsOf);
  builder.step();
  return builder.index;
}
