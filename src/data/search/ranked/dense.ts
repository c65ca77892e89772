/**
 * The ranked search's scorer (docs/search.md, "In a Web Worker: the dense scorer").
 *
 * MiniSearch's own query (`executeQuery`) builds a result object per matching document and
 * query word, calls `boostDocument` and reads two Maps per posting, then combines the words'
 * Maps. At 100k tracks a common word or a short prefix is tens of thousands of postings, and
 * that bookkeeping, not the arithmetic, was the time (profile: `termResults` 35 %, the boost
 * callback 25 %, garbage collection 10 %). This scores the same BM25 over MiniSearch's own
 * index (its radix tree, posting Maps, field lengths and document count) into flat typed
 * arrays indexed by MiniSearch's short document ids, with no allocation per posting:
 *
 * - per document, its field lengths and its boost (kind × popularity) are copied into typed
 *   arrays when it is added (`added`), and the listener's likes and follows are a per-document
 *   factor computed on first use after they change;
 * - a query word's expansions (exact, prefix, fuzzy; MiniSearch's weights) are cached until the
 *   vocabulary changes, so typing `midnigh` → `midnight` and asking again reuse them;
 * - AND: the rarest word is walked first; every other word only adds to documents that matched
 *   all words walked so far (a generation stamp and a bit mask per document, no Map); OR (the
 *   partial fall-back) walks every word;
 * - the best `limit` are kept in a small sorted array, and only they get their matched words
 *   (for highlighting) listed.
 *
 * The floating-point expression and the order of the sums are MiniSearch 7.2.0's (per word:
 * derived words, then fields, then postings; words summed in query order), and ties keep
 * MiniSearch's result order, so the ranking is MiniSearch's exactly (`dense.test.ts` compares).
 * It reads private fields, so package.json pins minisearch at exactly 7.2.0.
 */
/** term → field id → document short id → term frequency. */
type FieldTermData = Map<number, Map<number, number>>;

interface RadixLike {
  get(term: string): FieldTermData | undefined;
  atPrefix(prefix: string): Iterable<[string, FieldTermData]>;
  fuzzyGet(term: string, maxDistance: number): Map<string, [FieldTermData, number]>;
}

/** The MiniSearch 7.2.0 private fields this reads. */
interface DenseInternals {
  _index: RadixLike;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentCount: number;
  _documentIds: Map<number, string>;
  _nextId: number;
  _idToShortId: Map<string, number>;
}

/** A result of MiniSearch's own query (`executeQuery`). */
export interface RawResult {
  score: number;
  terms: string[];
  match: Record<string, string[]>;
}

export interface DenseOptions {
  /** Field name → boost, in MiniSearch's field order. */
  boost: Readonly<Record<string, number>>;
  prefix: (term: string) => boolean;
  fuzzy: (term: string) => number | false;
  weights: { fuzzy: number; prefix: number };
  /** The listener's factor for a document (likes, follows), or null when there is none. */
  personal: ((id: string) => number) | null;
  /** false: no document boost at all (MiniSearch's `search` without `boostDocument`). */
  documentBoost?: boolean;
}

export interface DenseHit {
  shortId: number;
  /** BM25 × boosts summed over the words, times the distinct words matched (MiniSearch's). */
  score: number;
  /** The indexed words that matched (for highlighting). */
  terms: string[];
}

interface Derived {
  term: string;
  weight: number;
  data: FieldTermData;
}

/** MiniSearch 7.2.0's default BM25 parameters. */
const K = 1.2;
const B = 0.7;
const D = 0.5;

const MAX_WORDS = 30;

function grow<T extends Float64Array | Int32Array>(a: T, size: number, fill?: number): T {
  if (a.length >= size) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2, 1024));
  next.set(a);
  if (fill !== undefined) next.fill(fill, a.length);
  return next;
}

export class DenseScorer {
  readonly #ms: DenseInternals;
  readonly #fields: string[];
  readonly #fieldIds: number[];
  /** Per short id: field lengths (short id × fields + field), boost, the listener's factor. */
  #length = new Float64Array(0);
  #boost = new Float64Array(0);
  #mine = new Float64Array(0);
  #personal: DenseOptions['personal'] = null;
  #documentBoost = true;
  /** Query scratch, per short id: the generation that touched it, the words it matched. */
  #stamp = new Int32Array(0);
  #mask = new Int32Array(0);
  #gen = 0;
  /** Per query word position: its score per short id (valid where the mask has its bit). */
  #wordScores: Float64Array[] = [];
  /** Per query word position: the short ids in the order they first matched it. */
  #order: Int32Array[] = [];
  /** `term fuzzy prefix` → its expansions; dropped when the vocabulary changes. */
  #expansions = new Map<string, Derived[]>();

  constructor(ms: object, fields: readonly string[]) {
    this.#ms = ms as DenseInternals;
    this.#fields = [...fields];
    this.#fieldIds = fields.map((f) => this.#ms._fieldIds[f] as number);
  }

  #capacity(size: number) {
    const f = this.#fields.length;
    this.#length = grow(this.#length, size * f);
    this.#boost = grow(this.#boost, size);
    this.#mine = grow(this.#mine, size, NaN);
    this.#stamp = grow(this.#stamp, size);
    this.#mask = grow(this.#mask, size);
  }

  /** A document was indexed (after MiniSearch's `add`): copy its lengths and boost. */
  added(id: string, boost: number) {
    const ms = this.#ms;
    const shortId = ms._idToShortId.get(id);
    if (shortId === undefined) return;
    this.#capacity(ms._nextId);
    const lengths = ms._fieldLength.get(shortId) ?? [];
    const f = this.#fields.length;
    for (let i = 0; i < f; i++)
      this.#length[shortId * f + i] = lengths[this.#fieldIds[i] as number] ?? 0;
    this.#boost[shortId] = boost;
    this.#mine[shortId] = NaN;
    this.vocabularyChanged();
  }

  /** A document's boost changed (its plays). */
  boosted(id: string, boost: number) {
    const shortId = this.#ms._idToShortId.get(id);
    if (shortId !== undefined) this.#boost[shortId] = boost;
  }

  /** Called before MiniSearch removes a document: its postings go with it. */
  removing(id: string) {
    const shortId = this.#ms._idToShortId.get(id);
    if (shortId !== undefined) this.#boost[shortId] = 0;
    this.vocabularyChanged();
  }

  vocabularyChanged() {
    if (this.#expansions.size > 0) this.#expansions = new Map();
  }

  /** The words `term` expands to, in `executeQuerySpec`'s order and with its weights. */
  #expand(term: string, o: DenseOptions): Derived[] {
    const fuzzy = o.fuzzy(term);
    const prefix = o.prefix(term);
    const key = `${term} ${fuzzy} ${prefix}`;
    const cached = this.#expansions.get(key);
    if (cached) return cached;
    const index = this.#ms._index;
    const out: Derived[] = [];
    const exact = index.get(term);
    if (exact) out.push({ term, weight: 1, data: exact });
    const fuzzyMatches = fuzzy ? index.fuzzyGet(term, fuzzy) : undefined;
    if (prefix) {
      for (const [t, data] of index.atPrefix(term)) {
        const distance = t.length - term.length;
        if (!distance) continue;
        fuzzyMatches?.delete(t);
        out.push({
          term: t,
          weight: (o.weights.prefix * t.length) / (t.length + 0.3 * distance),
          data,
        });
      }
    }
    if (fuzzyMatches) {
      for (const [t, [data, distance]] of fuzzyMatches) {
        if (!distance) continue;
        out.push({ term: t, weight: (o.weights.fuzzy * t.length) / (t.length + distance), data });
      }
    }
    this.#expansions.set(key, out);
    return out;
  }

  /** The listener's factor per short id, computed on first use after `personal` changed. */
  #docBoost(shortId: number): number {
    const base = this.#boost[shortId] as number;
    // A removed document keeps no postings; 0 also skips any left (as MiniSearch's `discard`).
    if (!this.#documentBoost) return base === 0 ? 0 : 1;
    const personal = this.#personal;
    if (!personal) return base;
    let mine = this.#mine[shortId] as number;
    if (mine !== mine) {
      mine = personal(this.#ms._documentIds.get(shortId) as string);
      this.#mine[shortId] = mine;
    }
    return base * mine;
  }

  /**
   * Walks one query word's postings (position `pos`): scores go to its score array, and a
   * document is taken only if it matched every word of `required` (a bit mask; 0 takes all).
   */
  #walk(pos: number, derived: Derived[], required: number, o: DenseOptions): number {
    const ms = this.#ms;
    const bit = 1 << pos;
    const gen = this.#gen;
    const stamp = this.#stamp;
    const mask = this.#mask;
    const lengths = this.#length;
    const fieldCount = this.#fields.length;
    const total = ms._documentCount;
    const scores = (this.#wordScores[pos] = grow(
      this.#wordScores[pos] ?? new Float64Array(0),
      ms._nextId,
    ));
    let order = (this.#order[pos] = grow(this.#order[pos] ?? new Int32Array(0), 64));
    let count = 0;
    for (const d of derived) {
      for (let f = 0; f < fieldCount; f++) {
        const freqs = d.data.get(this.#fieldIds[f] as number);
        if (!freqs) continue;
        const matching = freqs.size;
        const avg = ms._avgFieldLength[this.#fieldIds[f] as number] as number;
        const invDocFreq = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
        const weight = d.weight * 1 * (o.boost[this.#fields[f] as string] as number);
        freqs.forEach((tf, doc) => {
          let m = 0;
          if (stamp[doc] === gen) m = mask[doc] as number;
          else if (required !== 0) return;
          if ((m & required) !== required) return;
          const docBoost = this.#docBoost(doc);
          if (!docBoost) return;
          const len = lengths[doc * fieldCount + f] as number;
          const raw = invDocFreq * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * len) / avg)));
          const score = weight * docBoost * raw;
          if (m & bit) {
            scores[doc] = (scores[doc] as number) + score;
            return;
          }
          scores[doc] = score;
          stamp[doc] = gen;
          mask[doc] = m | bit;
          if (count === order.length) order = this.#order[pos] = grow(order, count + 1);
          order[count++] = doc;
        });
      }
    }
    return count;
  }

  /**
   * The best `limit` documents for `words` (tokenized, folded), all words (AND) or any (OR),
   * with how many matched; null for queries of more than 30 words (MiniSearch answers those).
   */
  top(
    words: readonly string[],
    combine: 'AND' | 'OR',
    limit: number,
    o: DenseOptions,
  ): { best: DenseHit[]; matched: number } | null {
    const n = words.length;
    if (n === 0 || n > MAX_WORDS) return null;
    const ms = this.#ms;
    this.#capacity(ms._nextId);
    this.#documentBoost = o.documentBoost !== false;
    if (o.personal !== this.#personal) {
      this.#personal = o.personal;
      this.#mine.fill(NaN);
    }
    if (++this.#gen > 0x3fffffff) {
      this.#gen = 1;
      this.#stamp.fill(0);
    }
    const derived = words.map((w) => this.#expand(w, o));
    // The distinct words (MiniSearch multiplies a score by how many distinct words matched).
    const firstOf = words.map((w) => words.indexOf(w));
    const counts: number[] = new Array<number>(n).fill(0);
    let final: Int32Array;
    let finalCount: number;
    let all = 0;
    if (combine === 'AND') {
      const df = derived.map((ds) => {
        let sum = 0;
        for (const d of ds) for (const freqs of d.data.values()) sum += freqs.size;
        return sum;
      });
      const byRarity = [...words.keys()].sort((a, b) => (df[a] as number) - (df[b] as number));
      for (const pos of byRarity) {
        counts[pos] = this.#walk(pos, derived[pos] as Derived[], all, o);
        all |= 1 << pos;
        if (counts[pos] === 0) return { best: [], matched: 0 };
      }
      // MiniSearch's AND keeps the last word's order.
      final = this.#order[n - 1] as Int32Array;
      finalCount = counts[n - 1] as number;
    } else {
      let merged = new Int32Array(64);
      finalCount = 0;
      for (let pos = 0; pos < n; pos++) {
        // A document first seen by this word joins the order (MiniSearch's OR appends it).
        const before = (1 << pos) - 1;
        counts[pos] = this.#walk(pos, derived[pos] as Derived[], 0, o);
        const order = this.#order[pos] as Int32Array;
        for (let j = 0; j < (counts[pos] as number); j++) {
          const doc = order[j] as number;
          if ((this.#mask[doc] as number) & before) continue;
          if (finalCount === merged.length) merged = grow(merged, finalCount + 1);
          merged[finalCount++] = doc;
        }
      }
      final = merged;
    }

    const best: DenseHit[] = [];
    const mask = this.#mask;
    let matched = 0;
    for (let j = 0; j < finalCount; j++) {
      const doc = final[j] as number;
      const m = mask[doc] as number;
      if (combine === 'AND' && (m & all) !== all) continue;
      matched++;
      let sum = 0;
      let first = true;
      let distinct = 0;
      for (let pos = 0; pos < n; pos++) {
        if (!(m & (1 << pos))) continue;
        const s = (this.#wordScores[pos] as Float64Array)[doc] as number;
        sum = first ? s : sum + s;
        first = false;
        if (firstOf[pos] === pos || !(m & (1 << (firstOf[pos] as number)))) distinct++;
      }
      const score = sum * (distinct || 1);
      if (best.length >= limit && score <= (best[best.length - 1] as DenseHit).score) continue;
      let at = best.length;
      while (at > 0 && (best[at - 1] as DenseHit).score < score) at--;
      best.splice(at, 0, { shortId: doc, score, terms: [] });
      if (best.length > limit) best.pop();
    }
    for (const hit of best) hit.terms = this.#matchedTerms(hit.shortId, derived);
    return { best, matched };
  }

  #matchedTerms(doc: number, derived: Derived[][]): string[] {
    const out = new Set<string>();
    const m = this.#mask[doc] as number;
    derived.forEach((ds, pos) => {
      if (!(m & (1 << pos))) return;
      for (const d of ds)
        for (const fieldId of this.#fieldIds)
          if (d.data.get(fieldId)?.has(doc)) {
            out.add(d.term);
            break;
          }
    });
    return [...out];
  }
}
