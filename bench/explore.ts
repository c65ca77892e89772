/**
 * `npm run bench -- explore`: search figures (issue 8). The local index over a mirror of
 * 100,000 tracks (build time, per-keystroke query time, against the row-by-row filter it
 * replaces), then server-side search of the same catalogue through /rest/v1 on PGlite and, when
 * a PostgreSQL is available, PostgreSQL. docs/search.md.
 */
import { loadavg } from 'node:os';
import { createSubstringIndex, fieldsContain, normaliseSearch } from '../src/lib/substring-index';
import { benchServerSearch } from './explore-server';
import {
  TYPED_QUERIES,
  keystrokes,
  makeCatalogue,
  ms,
  percentile,
  type BenchTrack,
} from './explore-catalogue';

export const CATALOGUE_SIZE = 100_000;
const ROUNDS = 5;

const fieldsOf = (t: BenchTrack) => [t.title, t.artist, t.album, t.genre];

function timeEach(queries: readonly string[], run: (q: string) => number): number[] {
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const q of queries) {
      const t0 = performance.now();
      run(q);
      times.push(performance.now() - t0);
    }
  }
  return times.sort((a, b) => a - b);
}

function benchLocal() {
  const made = performance.now();
  const tracks = makeCatalogue(CATALOGUE_SIZE);
  const makeMs = performance.now() - made;
  // Build twice: the first includes JIT warm-up; a mirror change rebuilds a warm process.
  let index = createSubstringIndex(tracks, fieldsOf);
  const builds: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    index = createSubstringIndex(tracks, fieldsOf);
    builds.push(performance.now() - t0);
  }
  builds.sort((a, b) => a - b);
  const typed = keystrokes(TYPED_QUERIES);
  for (const q of typed) index.search(q); // warm-up
  const indexed = timeEach(typed, (q) => index.search(q).length);
  const naive = timeEach(typed, (q) => {
    const n = normaliseSearch(q);
    return tracks.filter((t) => fieldsContain(fieldsOf(t), n)).length;
  });
  const worst = typed
    .map((q) => {
      const t0 = performance.now();
      const found = index.search(q).length;
      return { q, found, ms: performance.now() - t0 };
    })
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3);
  const heap = process.memoryUsage().heapUsed / 2 ** 20;
  console.log(
    [
      `  catalogue: ${CATALOGUE_SIZE.toLocaleString('en')} tracks generated in ${makeMs.toFixed(0)} ms; ` +
        `${index.vocabulary.toLocaleString('en')} distinct words`,
      `  index build: median ${ms(builds[1] ?? NaN)} ms (min ${ms(builds[0] ?? NaN)}, max ${ms(builds[2] ?? NaN)}); heap in use ${heap.toFixed(0)} MiB`,
      `  ${typed.length} keystrokes (${TYPED_QUERIES.map((q) => `'${q}'`).join(', ')}) × ${ROUNDS}:`,
      `    index     p50 ${ms(percentile(indexed, 50))} ms  p95 ${ms(percentile(indexed, 95))} ms  max ${ms(percentile(indexed, 100))} ms  (goal: p95 ≤ 16 ms)`,
      `    row scan  p50 ${ms(percentile(naive, 50))} ms  p95 ${ms(percentile(naive, 95))} ms  max ${ms(percentile(naive, 100))} ms  (the filter the index replaces)`,
      `    slowest keystrokes: ${worst.map((w) => `'${w.q}' ${ms(w.ms)} ms (${w.found.toLocaleString('en')} found)`).join(', ')}`,
    ].join('\n'),
  );
}

export async function benchExplore(): Promise<void> {
  console.log(
    `\nExplore search: local index (Node, one core; a browser tab runs the same code); load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  benchLocal();
  await benchServerSearch(CATALOGUE_SIZE);
}
