import { describe, expect, it } from 'vitest';
import { runRelevance } from './relevance';
import { RELEVANCE_SET } from './relevance-set';

describe('ranked search relevance over the demo catalogue (issue 33)', () => {
  const report = runRelevance();
  const misses = report.outcomes
    .filter((o) => o.rank !== 1)
    .map((o) => `${o.query} → rank ${o.rank ?? '-'} (${o.top.join(', ')})`);

  it('has at least 60 queries covering every category', () => {
    expect(RELEVANCE_SET.length).toBeGreaterThanOrEqual(60);
    const categories = new Set(RELEVANCE_SET.map((c) => c.category));
    expect(categories.size).toBe(10);
  });

  it('puts the expected result first for at least 85 % of the queries', () => {
    expect(report.first, misses.join('\n')).toBeGreaterThanOrEqual(0.85);
  });

  it('puts the expected result in the top 5 for at least 95 % of the queries', () => {
    expect(report.top5, misses.join('\n')).toBeGreaterThanOrEqual(0.95);
  });
});
