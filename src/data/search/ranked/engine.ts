/**
 * The ranked catalogue search (docs/search.md, "Ranked search"), on MiniSearch: BM25 over
 * title (name), artist, album, genre and lyrics with field weights, prefix matches while
 * typing, typo tolerance (1 edit for words of 4+ letters, 2 for 8+), folded diacritics and
 * case, words in any order, popularity as a tie-breaker and the listener's likes and follows
 * as a small boost. MiniSearch was measured against Orama (`npm run bench -- search`).
 */
import MiniSearch, { type SearchOptions } from 'minisearch';
import { fold, words } from '../../../lib/fold';
import type { Track } from '../../db/models';
import { DenseScorer, type DenseOptions, type RawResult } from './dense';
import { extraDocs, type SearchDoc, type SearchKind } from './docs';

/** Field weights: the title first, lyrics lowest. */
export const FIELD_BOOST = { name: 3, artist: 2, album: 1.5, genre: 1, lyrics: 0.25 } as const;
const FIELDS = Object.keys(FIELD_BOOST);
/** MiniSearch's default: every field counts the same (the suggestion's search). */
const SUGGEST_BOOST = Object.fromEntries(FIELDS.map((f) => [f, 1]));

/** Max edits for a query word: none under 4 letters, 1 from 4, 2 from 8. */
export const editsFor = (term: string) => (term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0);

/** Words shorter than this match exactly; from this length they also match as a prefix. */
export const MIN_PREFIX = 3;

/** Per kind: a whole-name match on an artist or album should beat a track that shares it. */
const KIND_BOOST: Record<SearchKind, number> = {
  track: 1,
  artist: 1.15,
  album: 1.05,
  playlist: 0.9,
};

export interface Personal {
  /** Tracks the listener liked. */
  likedTrackIds?: ReadonlySet<string>;
  /** Users the listener follows (their tracks, artists and albums get the boost). */
  followedIds?: ReadonlySet<string>;
}

export interface SearchHit {
  doc: SearchDoc;
  score: number;
  /** The folded document words that matched (for highlighting). */
  terms: ReadonlySet<string>;
}

export interface RankedAnswer {
  hits: SearchHit[];
  /** The folded query words (their prefixes are highlighted too). */
  queryTerms: string[];
  /** No result matched every word: these match some (a correction is worth offering). */
  partial: boolean;
}

const tokenize = (text: string) => words(text);
const processTerm = (term: string) => fold(term) || null;

function popularity(plays: number) {
  return 1 + 0.04 * Math.log10(1 + Math.max(0, plays));
}

/** The fields MiniSearch indexes: a document whose fields are unchanged needs no re-indexing. */
const sameText = (a: SearchDoc, b: SearchDoc) =>
  a.name === b.name &&
  a.artist === b.artist &&
  a.album === b.album &&
  a.genre === b.genre &&
  a.lyrics === b.lyrics;

/** A document's boost without the listener's likes and follows (kind and popularity). */
const baseBoost = (doc: SearchDoc) => KIND_BOOST[doc.kind] * popularity(doc.plays);

interface Scored {
  id: string;
  score: number;
  terms: string[];
}

/**
 * MiniSearch with a top-k search. `search()` builds a result object for every matching
 * document and sorts them all (at 100k tracks, a common word matches tens of thousands); this
 * keeps the best `limit` only, with the same score (BM25 times the matched query words) and the
 * same order (ties keep MiniSearch's order, as its stable sort does).
 */
class TopMiniSearch extends MiniSearch<SearchDoc> {
  /** The typed-array scorer (docs/search.md, "The dense scorer"); null: MiniSearch's query. */
  dense: DenseScorer | null = null;
  idOf(shortId: number) {
    return this._documentIds.get(shortId) as string;
  }

  /** A document's boost (kind × popularity), read when it is indexed. */
  boostOf: (id: string) => number = () => 1;

  override add(doc: SearchDoc) {
    super.add(doc);
    this.dense?.added(doc.id, this.boostOf(doc.id));
  }

  override discard(id: string) {
    this.dense?.removing(id);
    super.discard(id);
  }

  override replace(doc: SearchDoc) {
    super.replace(doc);
  }

  override remove(doc: SearchDoc) {
    this.dense?.removing(doc.id);
    super.remove(doc);
  }

  top(query: string, options: SearchOptions, limit: number): { best: Scored[]; matched: number } {
    const raw = (
      this as unknown as {
        executeQuery(q: string, o: SearchOptions): Map<number, RawResult>;
      }
    ).executeQuery(query, options);
    const best: Scored[] = [];
    const id = (shortId: number) => this._documentIds.get(shortId) as string;
    if (!Number.isFinite(limit)) {
      for (const [shortId, hit] of raw)
        best.push({
          id: id(shortId),
          score: hit.score * (hit.terms.length || 1),
          terms: Object.keys(hit.match),
        });
      return { best: best.sort((a, b) => b.score - a.score), matched: raw.size };
    }
    for (const [shortId, hit] of raw) {
      const score = hit.score * (hit.terms.length || 1);
      if (best.length >= limit && score <= (best[best.length - 1] as Scored).score) continue;
      let at = best.length;
      while (at > 0 && (best[at - 1] as Scored).score < score) at--;
      best.splice(at, 0, {
        id: id(shortId),
        score,
        terms: Object.keys(hit.match),
      });
      if (best.length > limit) best.pop();
    }
    return { best, matched: raw.size };
  }
}

export class CatalogueIndex {
  readonly #ms: TopMiniSearch;
  readonly #docs = new Map<string, SearchDoc>();
  /**
   * `baseBoost` per document id, computed when the document is set: MiniSearch calls
   * `boostDocument` once per matching posting, tens of thousands of times for a common word.
   */
  readonly #boost = new Map<string, number>();
  /** Documents added from the server (`addTracks`): a mirror `sync` keeps them. */
  readonly #extra = new Set<string>();
  /** Documents of the quick start (`addTracks` provisional): the first build confirms them. */
  readonly #provisional = new Set<string>();

  /**
   * `dense`: scores with the typed-array scorer (`dense.ts`, the app); false runs MiniSearch's
   * own query for every search (the reference the tests compare it with).
   */
  constructor({ dense = true }: { dense?: boolean } = {}) {
    this.#ms = new TopMiniSearch({
      idField: 'id',
      fields: FIELDS,
      tokenize,
      processTerm,
    });
    this.#ms.boostOf = (id) => this.#boost.get(id) ?? 1;
    if (dense) this.#ms.dense = new DenseScorer(this.#ms, FIELDS);
  }

  /** The listener's likes and follows as a factor per document id (kept while they are). */
  #personalFor: Personal | undefined;
  #personalFactor: DenseOptions['personal'] = null;

  #personal(personal: Personal | undefined): DenseOptions['personal'] {
    if (personal === this.#personalFor) return this.#personalFactor;
    this.#personalFor = personal;
    const { likedTrackIds, followedIds } = personal ?? {};
    if ((likedTrackIds?.size ?? 0) + (followedIds?.size ?? 0) === 0)
      return (this.#personalFactor = null);
    return (this.#personalFactor = (id) => {
      const doc = this.#docs.get(id);
      if (!doc) return 1;
      let mine = 1;
      if (doc.kind === 'track' && likedTrackIds?.has(doc.key)) mine *= 1.1;
      if (doc.kind !== 'playlist' && followedIds?.has(doc.owner)) mine *= 1.1;
      return mine;
    });
  }

  get size() {
    return this.#docs.size;
  }

  has = (id: string) => this.#docs.has(id);

  #set(doc: SearchDoc) {
    this.#docs.set(doc.id, doc);
    const boost = baseBoost(doc);
    this.#boost.set(doc.id, boost);
    this.#ms.dense?.boosted(doc.id, boost);
  }

  /**
   * Removes a document's postings at once (`remove` with the document as indexed), not
   * `discard`: MiniSearch leaves a discarded document's postings until a vacuum, and scoring
   * skips them one query at a time, so BM25's document frequencies would differ from query to
   * query (and between MiniSearch's query and the dense scorer).
   */
  #drop(id: string) {
    const old = this.#docs.get(id);
    if (old) this.#ms.remove(old);
  }

  #swap(old: SearchDoc, doc: SearchDoc) {
    this.#ms.remove(old);
    this.#ms.add(doc);
  }

  #fresh(docs: readonly SearchDoc[]) {
    const fresh = docs.filter((d) => !this.#docs.has(d.id));
    for (const d of fresh) this.#set(d);
    return fresh;
  }

  /** Adds documents not already indexed (ids already present are skipped). */
  add(docs: readonly SearchDoc[]) {
    this.#ms.addAll(this.#fresh(docs));
  }

  /**
   * The same, in chunks that yield to the event loop (no long task at 100k tracks). The index
   * answers between chunks with what it holds so far (`onChunk` after each but the last), so the first build
   * is useful before it ends: pass the most played first. A document the server added meanwhile
   * (`addTracks`) becomes the mirror's (its text replaced if it differs).
   */
  async addAsync(
    docs: readonly SearchDoc[],
    { chunkSize = 2000, onChunk }: { chunkSize?: number; onChunk?: () => void } = {},
  ) {
    for (let at = 0; at < docs.length; at += chunkSize) {
      if (at > 0) await new Promise((resolve) => setTimeout(resolve, 0));
      const chunk = docs.slice(at, at + chunkSize);
      for (const doc of chunk) {
        const old = this.#docs.get(doc.id);
        if (!old || !(this.#extra.delete(doc.id) || this.#provisional.delete(doc.id))) continue;
        if (!sameText(old, doc)) this.#swap(old, doc);
        this.#set(doc);
      }
      this.add(chunk);
      if (at + chunkSize < docs.length) onChunk?.();
    }
  }

  /**
   * Server rows the mirror lacks: their tracks (and new artists and albums) join the index.
   * `provisional`: the mirror's newest tracks at a cold start (the first build confirms them).
   */
  addTracks(tracks: readonly Track[], { provisional = false }: { provisional?: boolean } = {}) {
    const docs = extraDocs(tracks, this.has);
    for (const d of docs) (provisional ? this.#provisional : this.#extra).add(d.id);
    this.add(docs);
  }

  /** After the first build: quick-start documents it did not bring are gone from the mirror. */
  dropProvisional() {
    for (const id of this.#provisional) {
      this.#drop(id);
      this.#docs.delete(id);
      this.#boost.delete(id);
    }
    this.#provisional.clear();
  }

  /**
   * Brings the index to `docs` (a new read of the mirror) incrementally: new documents are
   * added, documents whose text changed are replaced, documents gone from the mirror are
   * discarded (except those the server added), and a change of plays or cover only updates the
   * stored document and its boost. Returns how many documents MiniSearch had to (re)index.
   */
  sync(docs: readonly SearchDoc[]): number {
    const seen = new Set<string>();
    const added: SearchDoc[] = [];
    let touched = 0;
    for (const doc of docs) {
      seen.add(doc.id);
      const old = this.#docs.get(doc.id);
      if (!old) added.push(doc);
      else if (!sameText(old, doc)) {
        this.#swap(old, doc);
        touched++;
      }
      if (old) this.#set(doc);
    }
    for (const id of [...this.#docs.keys()]) {
      if (seen.has(id) || this.#extra.has(id)) continue;
      this.#drop(id);
      this.#docs.delete(id);
      this.#boost.delete(id);
      touched++;
    }
    this.add(added);
    return touched + added.length;
  }

  search(query: string, options: { limit?: number; personal?: Personal } = {}): RankedAnswer {
    const queryTerms = words(query).map(fold).filter(Boolean);
    if (queryTerms.length === 0) return { hits: [], queryTerms, partial: false };
    const docs = this.#docs;
    const boosts = this.#boost;
    const mine = this.#personal(options.personal);
    const base = {
      boost: FIELD_BOOST,
      // Prefix matches while typing, for words of 3+ letters: a one- or two-letter prefix
      // matches most of a 100k catalogue's postings (`th` took 0.5 s), so it is exact only.
      prefix: (term: string) => term.length >= MIN_PREFIX,
      fuzzy: (term: string) => editsFor(term) || false,
      maxFuzzy: 2,
      weights: { fuzzy: 0.5, prefix: 0.6 },
    };
    const q = queryTerms.join(' ');
    const limit = options.limit ?? Infinity;
    const dense = this.#ms.dense;
    if (dense && Number.isFinite(limit)) {
      const terms = words(q).map(fold).filter(Boolean);
      const o: DenseOptions = { ...base, personal: mine };
      let answer = dense.top(terms, 'AND', limit, o);
      // Words in any order must all match; when none does, the best partial matches.
      const partial = answer?.matched === 0 && queryTerms.length > 1;
      if (partial) answer = dense.top(terms, 'OR', limit, o);
      if (answer) {
        const hits: SearchHit[] = [];
        for (const r of answer.best) {
          const doc = docs.get(this.#ms.idOf(r.shortId));
          if (doc) hits.push({ doc, score: r.score, terms: new Set(r.terms) });
        }
        return { hits, queryTerms, partial };
      }
    }
    // MiniSearch's own query: no limit, over 30 words, or `dense: false` (the tests' reference).
    const reference = {
      ...base,
      boostDocument: (id: string) => {
        const boost = boosts.get(id) ?? 1;
        return mine ? boost * mine(id) : boost;
      },
    };
    let results = this.#ms.top(q, { ...reference, combineWith: 'AND' }, limit);
    const partial = results.matched === 0 && queryTerms.length > 1;
    if (partial) results = this.#ms.top(q, { ...reference, combineWith: 'OR' }, limit);
    const hits: SearchHit[] = [];
    for (const r of results.best) {
      const doc = docs.get(r.id);
      if (doc) hits.push({ doc, score: r.score, terms: new Set(r.terms) });
    }
    return { hits, queryTerms, partial };
  }

  /**
   * The words the best document for `term` matched, with up to a third of its letters changed
   * (MiniSearch's `search` with default weights and no boosts; the dense scorer gives the
   * same best document without scoring through MiniSearch's result objects: `zzzq love`
   * took 0.7 s under load that way).
   */
  #nearestDocTerms(term: string): readonly string[] | null {
    const fuzzy = Math.max(2, Math.round(term.length / 3));
    const dense = this.#ms.dense;
    if (dense) {
      const answer = dense.top([term], 'AND', 1, {
        boost: SUGGEST_BOOST,
        prefix: () => false,
        fuzzy: () => fuzzy,
        weights: { fuzzy: 0.45, prefix: 0.375 },
        personal: null,
        documentBoost: false,
      });
      if (answer) return answer.best[0]?.terms ?? null;
    }
    return this.#ms.search(term, { fuzzy, maxFuzzy: 4, prefix: false })[0]?.terms ?? null;
  }

  /**
   * "Did you mean …?": the query with each word replaced by the closest indexed word (up to a
   * third of its letters changed), when that finds something; null otherwise.
   */
  suggest(query: string): string | null {
    const queryTerms = words(query).map(fold).filter(Boolean);
    if (queryTerms.length === 0) return null;
    const fixed = queryTerms.map((term) => {
      // Words under 4 letters are not corrected (no typo tolerance there either): at 100k
      // tracks, two edits of a 2-letter word match most of the vocabulary (`ne` took 1.5 s).
      if (editsFor(term) === 0) return term;
      const terms = this.#nearestDocTerms(term);
      if (!terms) return term;
      // The indexed word nearest the query word among those the best document matched.
      return [...terms].sort((a, b) => distance(a, term) - distance(b, term))[0] ?? term;
    });
    const text = fixed.join(' ');
    if (text === queryTerms.join(' ')) return null;
    return this.search(text, { limit: 1 }).hits.length > 0 ? text : null;
  }
}

/** Levenshtein distance (short words only: the suggestion's tie-break). */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j] as number;
      row[j] = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        prev + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      prev = tmp;
    }
  }
  return row[b.length] as number;
}

/** An index over `docs`, built at once (tests, small catalogues). */
export function createCatalogueIndex(
  docs: readonly SearchDoc[],
  options?: ConstructorParameters<typeof CatalogueIndex>[0],
): CatalogueIndex {
  const index = new CatalogueIndex(options);
  index.add(docs);
  return index;
}
