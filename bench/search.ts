/**
 * `npm run bench -- search` (issue 33, docs/search.md "Ranked search"): the relevance set's
 * shares (first, top 5) over the demo catalogue; the app's search worker in Chromium over a
 * 100,000-track mirror (`search-browser.ts`: main-thread cost and time to results per
 * keystroke); with SEARCH_LIBRARIES=1, the browser libraries side by side in Node (MiniSearch,
 * which the app uses, and Orama; about 30 minutes under load); then the server's
 * `search_catalogue` RPC through /rest/v1 on PostgreSQL 15
 * (bench/search-server.ts).
 */
import { loadavg } from 'node:os';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { buildSearchDocs, type SearchDoc } from '../src/data/search/ranked/docs';
import { CatalogueIndex, editsFor } from '../src/data/search/ranked/engine';
import { runRelevance } from '../tests/search/relevance';
import { keystrokes, ms, percentile } from './explore-catalogue';
import { CATALOGUE_SIZE } from './explore';
import { benchCatalogueSearchServer } from './search-server';
import { benchSearchBrowser } from './search-browser';
import { SEARCH_QUERIES, benchTracks } from './search-tracks';

const ROUNDS = 3;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

function printRelevance() {
  const report = runRelevance();
  console.log(`\nSearch relevance: ${report.outcomes.length} queries over the demo catalogue`);
  const byCategory = new Map<string, { n: number; first: number; top5: number }>();
  for (const o of report.outcomes) {
    const c = byCategory.get(o.category) ?? { n: 0, first: 0, top5: 0 };
    c.n++;
    if (o.rank === 1) c.first++;
    if (o.rank !== null && o.rank <= 5) c.top5++;
    byCategory.set(o.category, c);
  }
  for (const [category, c] of byCategory)
    console.log(`  ${category.padEnd(14)} ${c.n} queries, first ${c.first}, top 5 ${c.top5}`);
  const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
  console.log(
    `  expected result first: ${pct(report.first)} (goal ≥ 85 %), in the top 5: ${pct(report.top5)} (goal ≥ 95 %)`,
  );
  for (const o of report.outcomes.filter((x) => x.rank !== 1))
    console.log(`  miss: "${o.query}" → rank ${o.rank ?? '>20'} (${o.top.join(', ')})`);
}

interface Timed {
  label: string;
  build: number;
  times: number[];
  worst: { q: string; ms: number };
}

function timeKeystrokes(label: string, build: number, run: (q: string) => unknown): Timed {
  const typed = keystrokes(SEARCH_QUERIES);
  for (const q of typed) run(q); // warm-up
  const times: number[] = [];
  let worst = { q: '', ms: 0 };
  for (let r = 0; r < ROUNDS; r++)
    for (const q of typed) {
      const t0 = performance.now();
      run(q);
      const took = performance.now() - t0;
      times.push(took);
      if (took > worst.ms) worst = { q, ms: took };
    }
  return { label, build, times: times.sort((a, b) => a - b), worst };
}

function benchMiniSearch(docs: readonly SearchDoc[]): Timed {
  const t0 = performance.now();
  const index = new CatalogueIndex();
  index.add(docs);
  const build = performance.now() - t0;
  return timeKeystrokes('MiniSearch 7 (the app)', build, (q) => index.search(q, { limit: 50 }));
}

function benchOrama(docs: readonly SearchDoc[]): Timed {
  const t0 = performance.now();
  const db = create({
    schema: { name: 'string', artist: 'string', album: 'string', genre: 'string' } as const,
    components: { tokenizer: { stemming: false } },
  });
  void insertMultiple(
    db,
    docs.map((d) => ({ id: d.id, name: d.name, artist: d.artist, album: d.album, genre: d.genre })),
  );
  const build = performance.now() - t0;
  return timeKeystrokes('Orama 3', build, (q) =>
    oramaSearch(db, {
      term: q,
      properties: ['name', 'artist', 'album', 'genre'],
      boost: { name: 3, artist: 2, album: 1.5 },
      // Orama has one tolerance per query, not per word: the longest word's.
      tolerance: Math.max(0, ...q.split(/\s+/).map(editsFor)),
      limit: 50,
    }),
  );
}

function printTimed(rows: Timed[]) {
  console.log(`\nBrowser search libraries, ${CATALOGUE_SIZE.toLocaleString('en')} tracks`);
  console.log(
    `  (load average ${load()}; ${keystrokes(SEARCH_QUERIES).length} keystrokes × ${ROUNDS})`,
  );
  for (const r of rows)
    console.log(
      `  ${r.label.padEnd(24)} build ${(r.build / 1000).toFixed(2)} s; per keystroke p50 ${ms(percentile(r.times, 50))} / p95 ${ms(percentile(r.times, 95))} / max ${ms(r.times.at(-1) ?? NaN)} ms (slowest "${r.worst.q}"); goal p95 ≤ 16 ms`,
    );
}

export async function benchSearch() {
  printRelevance();
  await benchSearchBrowser(CATALOGUE_SIZE);
  if (process.env.SEARCH_LIBRARIES === '1') {
    const tracks = benchTracks(CATALOGUE_SIZE);
    const docs = buildSearchDocs({ tracks });
    console.log(`\n${docs.length.toLocaleString('en')} documents (tracks, artists, albums)`);
    const mini = benchMiniSearch(docs);
    const orama = benchOrama(docs);
    printTimed([mini, orama]);
  }
  // The server's part: bench/search-server.ts.
  await benchCatalogueSearchServer(CATALOGUE_SIZE, SEARCH_QUERIES);
}
