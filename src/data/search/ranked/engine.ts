/**
 * The ranked catalogue search (docs/search.md, "Ranked search"), on MiniSearch: BM25 over
 * title (name), artist, album, genre and lyrics with field weights, prefix matches while
 * typing, typo tolerance (1 edit for words of 4+ letters, 2 for 8+), folded diacritics and
 * case, words in any order, popularity as a tie-breaker and the listener's likes and follows
 * as a small boost. MiniSearch was measured against Orama (`npm run bench -- search`).
 */
import MiniSearch, { type SearchResult } from 'minisearch';
import { fold, words } from '../../../lib/fold';
import type { Track } from '../../db/models';
import { extraDocs, type SearchDoc, type SearchKind } from './docs';

/** Field weights: the title first, lyrics lowest. */
export const FIELD_BOOST = { name: 3, artist: 2, album: 1.5, genre: 1, lyrics: 0.25 } as const;
const FIELDS = Object.keys(FIELD_BOOST);

/** Max edits for a query word: none under 4 letters, 1 from 4, 2 from 8. */
export const editsFor = (term: string) => (term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0);

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

export class CatalogueIndex {
  readonly #ms: MiniSearch<SearchDoc>;
  readonly #docs = new Map<string, SearchDoc>();

  constructor() {
    this.#ms = new MiniSearch<SearchDoc>({
      idField: 'id',
      fields: FIELDS,
      tokenize,
      processTerm,
    });
  }

  get size() {
    return this.#docs.size;
  }

  has = (id: string) => this.#docs.has(id);

  /** Adds documents not already indexed (ids already present are skipped). */
  add(docs: readonly SearchDoc[]) {
    const fresh = docs.filter((d) => !this.#docs.has(d.id));
    for (const d of fresh) this.#docs.set(d.id, d);
    this.#ms.addAll(fresh);
  }

  /** The same, in chunks that yield to the event loop (no long task at 100k tracks). */
  async addAsync(docs: readonly SearchDoc[], chunkSize = 2000) {
    const fresh = docs.filter((d) => !this.#docs.has(d.id));
    for (const d of fresh) this.#docs.set(d.id, d);
    await this.#ms.addAllAsync(fresh, { chunkSize });
  }

  /** Server rows the mirror lacks: their tracks (and new artists and albums) join the index. */
  addTracks(tracks: readonly Track[]) {
    this.add(extraDocs(tracks, this.has));
  }

  search(query: string, options: { limit?: number; personal?: Personal } = {}): RankedAnswer {
    const queryTerms = words(query).map(fold).filter(Boolean);
    if (queryTerms.length === 0) return { hits: [], queryTerms, partial: false };
    const { likedTrackIds, followedIds } = options.personal ?? {};
    const docs = this.#docs;
    const base = {
      boost: FIELD_BOOST,
      // Prefix matches while typing, for words of 2+ letters (a single letter is exact only:
      // at 100k tracks its prefix would match most of the catalogue).
      prefix: (term: string) => term.length >= 2,
      fuzzy: (term: string) => editsFor(term) || false,
      maxFuzzy: 2,
      weights: { fuzzy: 0.5, prefix: 0.6 },
      boostDocument: (id: string) => {
        const doc = docs.get(id);
        if (!doc) return 1;
        let boost = KIND_BOOST[doc.kind] * popularity(doc.plays);
        if (doc.kind === 'track' && likedTrackIds?.has(doc.key)) boost *= 1.1;
        if (doc.kind !== 'playlist' && followedIds?.has(doc.owner)) boost *= 1.1;
        return boost;
      },
    };
    const q = queryTerms.join(' ');
    let results: SearchResult[] = this.#ms.search(q, { ...base, combineWith: 'AND' });
    // Words in any order must all match; when none does, the best partial matches.
    const partial = results.length === 0 && queryTerms.length > 1;
    if (partial) results = this.#ms.search(q, { ...base, combineWith: 'OR' });
    const limit = options.limit ?? results.length;
    const hits: SearchHit[] = [];
    for (const r of results) {
      const doc = docs.get(r.id as string);
      if (!doc) continue;
      hits.push({ doc, score: r.score, terms: new Set(r.terms) });
      if (hits.length >= limit) break;
    }
    return { hits, queryTerms, partial };
  }

  /**
   * "Did you mean …?": the query with each word replaced by the closest indexed word (up to a
   * third of its letters changed), when that finds something; null otherwise.
   */
  suggest(query: string): string | null {
    const queryTerms = words(query).map(fold).filter(Boolean);
    if (queryTerms.length === 0) return null;
    const fixed = queryTerms.map((term) => {
      const best = this.#ms.search(term, {
        fuzzy: Math.max(2, Math.round(term.length / 3)),
        maxFuzzy: 4,
        prefix: false,
      })[0];
      if (!best) return term;
      // The indexed word nearest the query word among those the best document matched.
      return [...best.terms].sort((a, b) => distance(a, term) - distance(b, term))[0] ?? term;
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
export function createCatalogueIndex(docs: readonly SearchDoc[]): CatalogueIndex {
  const index = new CatalogueIndex();
  index.add(docs);
  return index;
}
