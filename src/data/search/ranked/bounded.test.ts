// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { testTrack } from '../../db/test-track';
import { buildSearchDocs } from './docs';
import { createCatalogueIndex, type CatalogueIndex, type Personal } from './engine';

/**
 * A generated catalogue where `the` (and `them`, `there`, `these`…) is in most documents and
 * every field, `love` and `night` in many: with `common` set low, every query below goes
 * through the bounded scorer, which must return the full ranking's top k.
 */
function catalogue(n: number, plays = (i: number) => (i * 7919) % 5000) {
  const pool = ['the', 'them', 'there', 'these', 'theory', 'love', 'night', 'rain', 'lover'];
  const rare = ['harbor', 'lanterns', 'quartz', 'velvet', 'ember', 'thicket'];
  const pick = (i: number, salt: number) => pool[(i * 31 + salt * 17) % pool.length] as string;
  const tracks = Array.from({ length: n }, (_, i) =>
    testTrack(`g${i}`, {
      uploadedBy: `u${i % 23}`,
      title: `${pick(i, 1)} ${pick(i, 2)} ${rare[i % rare.length]} ${i % 97}`,
      artist: `${i % 5 ? 'The' : 'Los'} ${rare[(i >> 2) % rare.length]} ${i % 41}`,
      album: i % 3 ? `${pick(i, 3)} of ${rare[(i >> 3) % rare.length]}` : null,
      genre: i % 2 ? 'the blues' : 'rock',
      plays: plays(i),
    }),
  );
  const lyrics = new Map(
    tracks
      .filter((_, i) => i % 4 === 0)
      .map((t, i) => [t.id, `${pick(i, 4)} ${pick(i, 5)} the night the rain ${pick(i, 6)}`]),
  );
  return { tracks, lyrics };
}

const QUERIES = [
  'the',
  'the ',
  'them',
  'ther',
  'theor',
  'love',
  'lover',
  'the love',
  'love the',
  'the the',
  'the night rain',
  'the harbor',
  'harbor the',
  'thicket',
  'the quartz 12',
  'th',
  'lvoe',
  'the zzz',
];

/** Scores equal to the full ranking's; ids equal wherever the score is not tied at the cut. */
function expectSameTop(bounded: CatalogueIndex, full: CatalogueIndex, personal?: Personal) {
  for (const q of QUERIES) {
    for (const limit of [1, 5, 40]) {
      const want = full.search(q, { limit, personal }).hits;
      const got = bounded.search(q, { limit, personal }).hits;
      expect(
        got.map((h) => h.score),
        `${q} top ${limit}`,
      ).toEqual(want.map((h) => h.score));
      const cut = want[want.length - 1]?.score ?? 0;
      const ids = (hits: typeof want) =>
        hits.filter((h) => h.score > cut).map((h) => `${h.score} ${h.doc.id}`);
      expect(new Set(ids(got)), `${q} top ${limit}`).toEqual(new Set(ids(want)));
      expect(
        got.map((h) => [...h.terms].sort()),
        `${q} top ${limit} highlighted words`,
      ).toEqual(
        got.map((h) => [...(want.find((w) => w.doc.id === h.doc.id)?.terms ?? h.terms)].sort()),
      );
    }
  }
}

// Each test compares dozens of top-k queries on several indexes: seconds under the CI's load.
describe('bounded scoring of common words', { timeout: 120_000 }, () => {
  const sources = catalogue(1500);
  const docs = buildSearchDocs(sources);
  const full = createCatalogueIndex(docs, { bounded: false });

  it('returns the full ranking’s top k, by each path', () => {
    const shallow = createCatalogueIndex(docs, { bounded: { common: 120, depth: 16 } });
    const deep = createCatalogueIndex(docs, { bounded: { common: 120, depth: 100 } });
    expectSameTop(shallow, full);
    expectSameTop(deep, full);
    const [a, b] = [shallow.boundedStats!, deep.boundedStats!];
    const stats = {
      rarestFirst: a.rarestFirst,
      threshold: a.threshold + b.threshold,
      full: a.full,
    };
    // Each path ran: the rarest word first, the threshold bound, and the fall-back in full.
    expect(stats.rarestFirst).toBeGreaterThan(0);
    expect(stats.threshold).toBeGreaterThan(0);
    expect(stats.full).toBeGreaterThan(0);
  });

  it('stays exact with the app’s settings and with likes and follows', () => {
    const bounded = createCatalogueIndex(docs);
    expectSameTop(bounded, full);
    const personal = {
      likedTrackIds: new Set(['g3', 'g10', 'g400']),
      followedIds: new Set(['u5', 'u7']),
    };
    expectSameTop(
      createCatalogueIndex(docs, { bounded: { common: 120, depth: 16 } }),
      full,
      personal,
    );
  });

  it('recomputes impacts when plays change or documents go', () => {
    const bounded = createCatalogueIndex(docs, { bounded: { common: 120, depth: 16 } });
    bounded.search('the', { limit: 5 });
    const replayed = catalogue(1500, (i) => (i * 104729) % 7000);
    const shrunk = {
      tracks: replayed.tracks.filter((_, i) => i % 9 !== 0),
      lyrics: replayed.lyrics,
    };
    const next = buildSearchDocs(shrunk);
    bounded.sync(next);
    const fresh = createCatalogueIndex(docs, { bounded: false });
    fresh.sync(next);
    expectSameTop(bounded, fresh);
  });
});
