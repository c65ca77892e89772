/**
 * Bounded scoring of very common words (docs/search.md, "Common words: bounded scoring").
 *
 * MiniSearch scores every posting of every word a query word expands to before it intersects
 * words or keeps the top k: `the` (with `them`, `there`…) is tens of thousands of documents
 * at 100k tracks. This scores the same BM25 over MiniSearch's own index, but for a query whose
 * words are common it looks at a bounded candidate set, and it returns null (the caller runs
 * MiniSearch's full query) whenever it cannot prove that its top k equals the full ranking's:
 *
 * - Several words, one of them common: the rarest word and the uncommon ones are scored in
 *   full (MiniSearch's `executeQuerySpec`) and intersected (AND), and the common words are
 *   looked up in those candidates only. Every document the full AND query can return is a
 *   candidate, so the result is exact by construction.
 * - One common word (`the`, `love`): per (indexed word, field), the postings ordered by a
 *   static impact (field boost × BM25 term part × the document's boost), computed on first use
 *   and dropped when the index changes. The candidates are the top `depth` of each list (all of
 *   a shorter list), scored exactly. A document outside them scores at most the sum, over the
 *   truncated lists, of the impact at the cut (times the query word's weight and the listener's
 *   largest personal boost): the threshold algorithm's bound. When the k-th best candidate is
 *   above it, the top k is exact; otherwise the lists are read 4× deeper once, then null.
 *
 * It relies on MiniSearch 7.2.0's private fields (`_index`, `_fieldIds`, `_fieldLength`,
 * `_avgFieldLength`, `_documentCount`, `_documentIds`, `executeQuerySpec`), so package.json
 * pins minisearch exactly; `bounded.test.ts` compares it with the full ranking.
 */

/** term → field id → document short id → term frequency. */
type FieldTermData = Map<number, Map<number, number>>;

interface RadixLike {
  get(term: string): FieldTermData | undefined;
  atPrefix(prefix: string): Iterable<[string, FieldTermData]>;
  fuzzyGet(term: string, maxDistance: number): Map<string, [FieldTermData, number]>;
}

export interface Internals {
  _index: RadixLike;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentCount: number;
  _documentIds: Map<number, string>;
  executeQuerySpec(spec: QuerySpec, options: object): Map<number, RawResult>;
}

export interface RawResult {
  score: number;
  terms: string[];
  match: Record<string, string[]>;
}

interface QuerySpec {
  term: string;
  fuzzy: number | false;
  prefix: boolean;
  termBoost: number;
}

export interface BoundedOptions {
  /** Field name → boost, in MiniSearch's field order. */
  boost: Record<string, number>;
  prefix: (term: string) => boolean;
  fuzzy: (term: string) => number | false;
  weights: { fuzzy: number; prefix: number };
  boostDocument: (id: string) => number;
  /** The document's boost without the listener's (the static impact's). */
  baseBoost: (id: string) => number;
  /** The most `boostDocument` can exceed `baseBoost` by (likes and follows). */
  boostCeiling: number;
}

/** A word a query word expands to, with its weight (exact 1, prefix and fuzzy less). */
interface Derived {
  term: string;
  weight: number;
  data: FieldTermData;
}

/** One (indexed word, field) list, its postings ordered by impact, best first. */
interface ImpactList {
  /** The best postings (at least the deepest read, 4 × depth), best first. */
  docs: Int32Array;
  impact: Float64Array;
  /** All postings of the list. */
  total: number;
}

const BM25 = { k: 1.2, b: 0.7, d: 0.5 };

/** MiniSearch 7.2.0's `calcBM25Score`, the same expression (the same floating-point result). */
function bm25(tf: number, matching: number, total: number, len: number, avgLen: number) {
  const { k, b, d } = BM25;
  const invDocFreq = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
  return invDocFreq * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * len) / avgLen)));
}

export class BoundedScorer {
  readonly #ms: Internals;
  /** `${fieldId} ${term}` → its impact-ordered list; cleared when the index changes. */
  #lists = new Map<string, ImpactList>();
  /** A query word is common when the postings it expands to exceed this. */
  readonly common: number;
  /** How many postings of each list are read (4× once more when the bound is not met). */
  readonly depth: number;
  /** How queries were answered: uncommon words first, the threshold bound, or in full. */
  readonly stats = { rarestFirst: 0, threshold: 0, full: 0 };

  constructor(ms: object, { common = 4000, depth = 256 } = {}) {
    this.#ms = ms as Internals;
    this.common = common;
    this.depth = depth;
  }

  /** The index or a document's boost changed: impacts are recomputed on next use. */
  invalidate() {
    if (this.#lists.size > 0) this.#lists = new Map();
  }

  #spec(term: string, o: BoundedOptions): QuerySpec {
    return { term, fuzzy: o.fuzzy(term), prefix: o.prefix(term), termBoost: 1 };
  }

  /** The words `spec` expands to, in `executeQuerySpec`'s order and with its weights. */
  #expand(spec: QuerySpec, o: BoundedOptions): Derived[] {
    const index = this.#ms._index;
    const out: Derived[] = [];
    const exact = index.get(spec.term);
    if (exact) out.push({ term: spec.term, weight: 1, data: exact });
    const fuzzyMatches = spec.fuzzy ? index.fuzzyGet(spec.term, spec.fuzzy) : undefined;
    if (spec.prefix) {
      for (const [term, data] of index.atPrefix(spec.term)) {
        const distance = term.length - spec.term.length;
        if (!distance) continue;
        fuzzyMatches?.delete(term);
        const weight = (o.weights.prefix * term.length) / (term.length + 0.3 * distance);
        out.push({ term, weight, data });
      }
    }
    if (fuzzyMatches) {
      for (const [term, [data, distance]] of fuzzyMatches) {
        if (!distance) continue;
        out.push({
          term,
          weight: (o.weights.fuzzy * term.length) / (term.length + distance),
          data,
        });
      }
    }
    return out;
  }

  #impactList(d: Derived, field: string, fieldId: number, o: BoundedOptions): ImpactList {
    const key = `${fieldId} ${d.term}`;
    const cached = this.#lists.get(key);
    if (cached) return cached;
    const ms = this.#ms;
    const freqs = d.data.get(fieldId) as Map<number, number>;
    const matching = freqs.size;
    const avg = ms._avgFieldLength[fieldId] as number;
    const fieldBoost = o.boost[field] as number;
    const docs = new Int32Array(freqs.size);
    const impact = new Float64Array(freqs.size);
    let at = 0;
    for (const [doc, tf] of freqs) {
      const id = ms._documentIds.get(doc) as string;
      const len = (ms._fieldLength.get(doc) as number[])[fieldId] as number;
      docs[at] = doc;
      impact[at++] = fieldBoost * o.baseBoost(id) * bm25(tf, matching, ms._documentCount, len, avg);
    }
    // Only the best 4 × depth are ever read: find the cut with a native numeric sort of the
    // impacts (no objects), then order the postings at or above it.
    const keep = this.depth * 4;
    let cut = -Infinity;
    if (impact.length > keep) cut = impact.slice().sort()[impact.length - keep] as number;
    const best: number[] = [];
    for (let j = 0; j < impact.length; j++) if ((impact[j] as number) >= cut) best.push(j);
    best.sort((a, b) => (impact[b] as number) - (impact[a] as number) || a - b);
    const list: ImpactList = {
      docs: Int32Array.from(best, (j) => docs[j] as number),
      impact: Float64Array.from(best, (j) => impact[j] as number),
      total: freqs.size,
    };
    this.#lists.set(key, list);
    return list;
  }

  /**
   * One query word's exact scores for the documents of `pool` it matches, in MiniSearch's
   * summation order (derived words, then fields), so the floating-point sums are the same.
   */
  #scoreWord(word: string, derived: Derived[], pool: Map<number, unknown>, o: BoundedOptions) {
    const ms = this.#ms;
    const out = new Map<number, RawResult>();
    for (const d of derived) {
      for (const field of Object.keys(o.boost)) {
        const fieldId = ms._fieldIds[field] as number;
        const freqs = d.data.get(fieldId);
        if (!freqs) continue;
        const matching = freqs.size;
        const avg = ms._avgFieldLength[fieldId] as number;
        const fieldBoost = o.boost[field] as number;
        // Per list, the smaller side: the pool's documents looked up, or the list walked.
        const docs = freqs.size < pool.size ? freqs.keys() : pool.keys();
        const walk = freqs.size < pool.size;
        for (const doc of docs) {
          if (walk && !pool.has(doc)) continue;
          const tf = freqs.get(doc);
          if (tf === undefined) continue;
          const id = ms._documentIds.get(doc) as string;
          const docBoost = o.boostDocument(id);
          if (!docBoost) continue;
          const len = (ms._fieldLength.get(doc) as number[])[fieldId] as number;
          const raw = bm25(tf, matching, ms._documentCount, len, avg);
          const score = d.weight * 1 * fieldBoost * docBoost * raw;
          const r = out.get(doc);
          if (r) {
            r.score += score;
            (r.match[d.term] ??= []).push(field);
          } else out.set(doc, { score, terms: [word], match: { [d.term]: [field] } });
        }
      }
    }
    return out;
  }

  /** Posting lists a word reads (one per derived word and field). */
  #listCount(derived: Derived[]) {
    let n = 0;
    for (const d of derived) n += d.data.size;
    return n;
  }

  /**
   * The best `limit` hits of the AND query over `words` (already tokenized and folded), as
   * MiniSearch's raw results (at least the top `limit`), or null when no word is common or the
   * bound cannot be proven (run the full query then).
   */
  top(words: string[], o: BoundedOptions, limit: number): Map<number, RawResult> | null {
    if (words.length === 0 || !Number.isFinite(limit) || limit <= 0) return null;
    const ms = this.#ms;
    const specs = words.map((w) => this.#spec(w, o));
    const derived = specs.map((s) => this.#expand(s, o));
    const df = derived.map((ds) => {
      let n = 0;
      for (const d of ds) for (const freqs of d.data.values()) n += freqs.size;
      return n;
    });
    if (df.every((n) => n <= this.common)) return null;
    const searchOptions = {
      boost: o.boost,
      weights: o.weights,
      maxFuzzy: 2,
      boostDocument: o.boostDocument,
      bm25: BM25,
    };
    const full = (i: number) => ms.executeQuerySpec(specs[i] as QuerySpec, searchOptions);

    if (words.length > 1) {
      // The uncommon words (at least the rarest) in full, MiniSearch's own scoring; the common
      // ones looked up in the documents every one of those matched, unless reading them whole
      // is cheaper. Every document the AND query returns is a candidate: exact by construction.
      const rarest = df.indexOf(Math.min(...df));
      const perWord: (Map<number, RawResult> | null)[] = words.map((_, i) =>
        i === rarest || (df[i] as number) <= this.common ? full(i) : null,
      );
      let pool: Map<number, unknown> | null = null;
      for (const r of perWord) if (r) pool = pool === null ? r : intersect(pool, r);
      const candidates = pool as Map<number, unknown>;
      const results = perWord.map((r, i) => {
        if (r) return r;
        const lookups = candidates.size * this.#listCount(derived[i] as Derived[]);
        return lookups > (df[i] as number)
          ? full(i)
          : this.#scoreWord(words[i] as string, derived[i] as Derived[], candidates, o);
      });
      this.stats.rarestFirst++;
      return results.reduce(andCombine);
    }

    // One common word: the threshold algorithm over impact-ordered lists.
    const distinct = new Set(words).size;
    for (const depth of [this.depth, this.depth * 4]) {
      const pool = new Map<number, true>();
      // Per pooled document: the part of its score its pooled postings prove (a lower bound,
      // since its boost with likes is at least the static one), and the words they cover.
      const known = new Map<number, number>();
      const seen = new Map<number, number>();
      let bound = 0;
      for (let i = 0; i < words.length; i++) {
        let wordBound = 0;
        for (const d of derived[i] as Derived[]) {
          for (const field of Object.keys(o.boost)) {
            const fieldId = ms._fieldIds[field] as number;
            if (!d.data.has(fieldId)) continue;
            const list = this.#impactList(d, field, fieldId, o);
            const n = Math.min(depth, list.docs.length);
            for (let j = 0; j < n; j++) {
              const doc = list.docs[j] as number;
              pool.set(doc, true);
              known.set(doc, (known.get(doc) ?? 0) + d.weight * (list.impact[j] as number));
              const mask = seen.get(doc) ?? 0;
              if (i < 30) seen.set(doc, mask | (1 << i));
            }
            if (list.total > n) wordBound += d.weight * (list.impact[n - 1] as number);
          }
        }
        bound += wordBound * o.boostCeiling;
      }
      // A document outside the pool scores at most the sum of the bounds (each word's score is
      // a sum over its lists), times the distinct words (`top` multiplies by them).
      bound *= distinct;
      if (bound > 0) {
        // Decide before scoring: the k-th best proven score among documents seen for every
        // word (which therefore match them all) must be above the bound, strictly (a document
        // outside at the bound could tie and sort differently).
        const all = words.length < 30 ? 2 ** words.length - 1 : -1;
        const proven: number[] = [];
        for (const [doc, sum] of known) if (seen.get(doc) === all) proven.push(sum * distinct);
        if (proven.length < limit) continue;
        proven.sort((a, b) => b - a);
        if (!((proven[limit - 1] as number) > bound)) continue;
      }
      const results = words.map((w, i) => this.#scoreWord(w, derived[i] as Derived[], pool, o));
      this.stats.threshold++;
      return results.reduce(andCombine);
    }
    this.stats.full++;
    return null;
  }
}

function intersect(a: Map<number, unknown>, b: Map<number, unknown>) {
  const out = new Map<number, true>();
  for (const doc of b.keys()) if (a.has(doc)) out.set(doc, true);
  return out;
}

/** MiniSearch 7.2.0's AND combinator (the same order, sums and terms). */
function andCombine(a: Map<number, RawResult>, b: Map<number, RawResult>) {
  const combined = new Map<number, RawResult>();
  for (const [doc, r] of b) {
    const existing = a.get(doc);
    if (existing === undefined) continue;
    for (const t of r.terms) if (!existing.terms.includes(t)) existing.terms.push(t);
    combined.set(doc, {
      score: existing.score + r.score,
      terms: existing.terms,
      match: Object.assign(existing.match, r.match),
    });
  }
  return combined;
}
