// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { testTrack } from '../../db/test-track';
import { buildSearchDocs } from './docs';
import { createCatalogueIndex, type CatalogueIndex, type Personal } from './engine';

/**
 * A generated catalogue where `the` (and `them`, `there`, `these`…) is in most documents and
 * every field, `love` and `night` in many, plus typos' targets: the dense scorer must give
 * MiniSearch's own ranking (`dense: false`) exactly, scores and order included.
 */
function catalogue(n: number, plays = (i: number) => (i * 7919) % 5000) {
  const pool = ['the', 'them', 'there', 'these', 'theory', 'love', 'night', 'rain', 'lover'];
  const rare = ['harbor', 'lanterns', 'quartz', 'velvet', 'ember', 'thicket', 'midnight'];
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
  'mdnight',
  'midnigh',
  'midnite lanterns',
  // No document has every word: the partial (OR) answer.
  'the zzz',
  'zzz harbor love',
  'quartz velvet',
];

/** The same hits, in the same order, with the same scores and highlighted words. */
function expectSame(dense: CatalogueIndex, full: CatalogueIndex, personal?: Personal) {
  for (const q of QUERIES) {
    for (const limit of [1, 5, 40]) {
      const want = full.search(q, { limit, personal });
      const got = dense.search(q, { limit, personal });
      const shape = (a: typeof want) => ({
        partial: a.partial,
        hits: a.hits.map((h) => [h.doc.id, h.score, [...h.terms].sort()]),
      });
      expect(shape(got), `${q} top ${limit}`).toEqual(shape(want));
    }
  }
}

describe('the dense scorer', { timeout: 120_000 }, () => {
  const sources = catalogue(1500);
  const docs = buildSearchDocs(sources);

  it('ranks exactly as MiniSearch’s own query, with and without likes and follows', () => {
    const full = createCatalogueIndex(docs, { dense: false });
    const dense = createCatalogueIndex(docs);
    expect(dense.search('the zzz', { limit: 5 }).partial).toBe(true);
    expect(dense.search('the', { limit: 40 }).hits).toHaveLength(40);
    expectSame(dense, full);
    const personal = {
      likedTrackIds: new Set(['g3', 'g10', 'g400']),
      followedIds: new Set(['u5', 'u7']),
    };
    expectSame(dense, full, personal);
    // "Did you mean …?" picks its word from the same best document.
    for (const q of [
      'lvoe',
      'thiket',
      'haror lanterns',
      'qurtz velvt',
      'the zzz',
      'mdnite',
      'zzzz',
    ])
      expect(dense.suggest(q), q).toBe(full.suggest(q));
    expect(dense.suggest('haror lantrens')).toBe('harbor lanterns');
    // The listener's factor is recomputed when likes change (a new object from the worker).
    expectSame(dense, full, { likedTrackIds: new Set(['g11']), followedIds: new Set() });
    expectSame(dense, full);
  });

  it('stays exact when plays change, text changes, documents go and server rows arrive', () => {
    const dense = createCatalogueIndex(docs);
    const full = createCatalogueIndex(docs, { dense: false });
    dense.search('the', { limit: 5 });
    dense.search('midnigh', { limit: 5 });
    const replayed = catalogue(1500, (i) => (i * 104729) % 7000);
    const next = {
      tracks: replayed.tracks
        .filter((_, i) => i % 9 !== 0)
        .map((t, i) => (i % 50 === 0 ? { ...t, title: `Harbour Lights ${i}` } : t)),
      lyrics: replayed.lyrics,
    };
    const nextDocs = buildSearchDocs(next);
    expect(dense.sync(nextDocs)).toBeGreaterThan(0);
    full.sync(nextDocs);
    const server = [
      testTrack('s1', { title: 'The Midnight Lanterns', artist: 'Quartz', plays: 9 }),
    ];
    dense.addTracks(server);
    full.addTracks(server);
    expectSame(dense, full);
    expect(dense.search('harbour', { limit: 5 }).hits.length).toBeGreaterThan(0);
    expect(dense.search('midnight lanterns', { limit: 1 }).hits[0]?.doc.key).toBe('s1');
  });
});
