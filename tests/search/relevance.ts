/**
 * Runs the relevance set (tests/search/relevance-set.ts) against an index of the demo
 * catalogue: per query, the rank of the expected result; overall, the shares first and in the
 * top 5. Used by the CI test and by `npm run bench -- search`.
 */
import { createCatalogueIndex } from '../../src/data/search/ranked/engine';
import { demoSearchCatalogue, docLabel } from './demo-catalogue';
import { RELEVANCE_SET, type RelevanceCase } from './relevance-set';

export interface RelevanceOutcome extends RelevanceCase {
  /** 1-based rank of the expected result; null when not in the first 20. */
  rank: number | null;
  top: string[];
}

export interface RelevanceReport {
  outcomes: RelevanceOutcome[];
  first: number;
  top5: number;
}

export function runRelevance(cases: readonly RelevanceCase[] = RELEVANCE_SET): RelevanceReport {
  const index = createCatalogueIndex(demoSearchCatalogue().docs);
  const outcomes = cases.map((k) => {
    const top = index.search(k.query, { limit: 20 }).hits.map((h) => docLabel(h.doc));
    const at = top.indexOf(k.expect);
    return { ...k, rank: at < 0 ? null : at + 1, top: top.slice(0, 5) };
  });
  const share = (n: number) => outcomes.filter((o) => o.rank !== null && o.rank <= n).length;
  return {
    outcomes,
    first: share(1) / outcomes.length,
    top5: share(5) / outcomes.length,
  };
}
