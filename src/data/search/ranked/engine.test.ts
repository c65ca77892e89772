// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { testTrack } from '../../db/test-track';
import { buildSearchDocs } from './docs';
import { createCatalogueIndex, distance, editsFor } from './engine';

const tracks = [
  testTrack('t1', {
    uploadedBy: 'u-t1',
    title: 'Déjà Vu',
    artist: 'Beyoncé',
    album: 'B Day',
    plays: 10,
  }),
  testTrack('t2', {
    uploadedBy: 'u-t2',
    title: 'Halo',
    artist: 'Beyoncé',
    album: 'I Am',
    plays: 500,
  }),
  testTrack('t3', {
    uploadedBy: 'u-t3',
    title: 'Halo',
    artist: 'Cover Band',
    album: null,
    plays: 5,
  }),
  testTrack('t4', {
    uploadedBy: 'u-t4',
    title: 'Paper Lanterns',
    artist: 'Juniper Vale',
    album: null,
    plays: 1,
  }),
];
const index = () => createCatalogueIndex(buildSearchDocs({ tracks }));
const names = (r: ReturnType<ReturnType<typeof index>['search']>) =>
  r.hits.map((h) => `${h.doc.kind}:${h.doc.name}`);

describe('CatalogueIndex', () => {
  it('folds diacritics and case both ways', () => {
    expect(names(index().search('beyonce'))[0]).toBe('artist:Beyoncé');
    expect(names(index().search('DEJA VU'))[0]).toBe('track:Déjà Vu');
  });

  it('tolerates 1 edit from 4 letters and 2 from 8, none below 4', () => {
    expect(editsFor('hal')).toBe(0);
    expect(editsFor('halo')).toBe(1);
    expect(editsFor('lanterns')).toBe(2);
    expect(names(index().search('papr'))[0]).toBe('track:Paper Lanterns');
    expect(names(index().search('latnerns'))[0]).toBe('track:Paper Lanterns');
    expect(index().search('hxl').hits).toEqual([]);
  });

  it('breaks ties by plays, and lets likes and follows lift a result', () => {
    expect(names(index().search('halo')).slice(0, 2)).toEqual(['track:Halo', 'track:Halo']);
    expect(index().search('halo').hits[0]!.doc.key).toBe('t2');
    const liked = index().search('halo', { personal: { likedTrackIds: new Set(['t3']) } });
    // A like is a small boost (10 %): enough between near equals.
    expect(liked.hits[0]!.doc.key).toBe('t3');
    const followed = index().search('halo', {
      personal: { likedTrackIds: new Set(['t3']), followedIds: new Set([tracks[2]!.uploadedBy]) },
    });
    expect(followed.hits.find((h) => h.doc.key === 't3')!.score).toBeGreaterThan(
      index()
        .search('halo')
        .hits.find((h) => h.doc.key === 't3')!.score,
    );
  });

  it('reports the matched words for highlighting', () => {
    const hit = index().search('paper lant').hits[0]!;
    expect([...hit.terms].sort()).toEqual(['lanterns', 'paper']);
  });

  it('adds server rows once, with their artists', () => {
    const i = index();
    const before = i.size;
    const extra = testTrack('t9', {
      uploadedBy: 'u-t9',
      title: 'Isobar',
      artist: 'Subterrane',
      album: null,
    });
    i.addTracks([extra, tracks[0]!]);
    i.addTracks([extra]);
    expect(i.size).toBe(before + 2);
    expect(names(i.search('subterane'))[0]).toBe('artist:Subterrane');
  });

  it('suggests the closest correction only when it finds something', () => {
    expect(index().search('peper lantrens').hits.length).toBeGreaterThan(0);
    expect(index().suggest('halo')).toBe(null);
    expect(index().search('paper lanterns').partial).toBe(false);
    expect(index().search('ppaer lantrens').partial).toBe(true);
    expect(index().suggest('ppaer lantrens')).toBe('paper lanterns');
    expect(index().suggest('zzzzqqq')).toBe(null);
    expect(distance('kitten', 'sitting')).toBe(3);
  });

  it('keeps the best k in the same order as ranking everything', () => {
    const big = createCatalogueIndex(
      buildSearchDocs({
        tracks: Array.from({ length: 300 }, (_, n) =>
          testTrack(`b${n}`, {
            uploadedBy: `u${n % 7}`,
            title: `Night ${['rain', 'light', 'drive', 'train'][n % 4]} ${n % 13}`,
            artist: `Band ${n % 11}`,
            album: n % 3 ? `Album ${n % 5}` : null,
            plays: (n * 37) % 100,
          }),
        ),
      }),
    );
    for (const q of ['night', 'nig', 'rain', 'night rain', 'band 3', 'album', 'lihgt', 'xx']) {
      const all = big.search(q).hits.map((h) => [h.doc.id, h.score]);
      for (const k of [1, 5, 40])
        expect(big.search(q, { limit: k }).hits.map((h) => [h.doc.id, h.score])).toEqual(
          all.slice(0, k),
        );
    }
  });

  it('syncs with a new read of the mirror without rebuilding', () => {
    const i = index();
    const renamed = tracks.map((t) => (t.id === 't4' ? { ...t, title: 'Kettle On' } : t));
    // Plays only: nothing to re-index, the boost follows.
    expect(
      i.sync(buildSearchDocs({ tracks: tracks.map((t) => ({ ...t, plays: t.plays + 1 })) })),
    ).toBe(0);
    // t4 renamed: its track document is replaced.
    expect(i.sync(buildSearchDocs({ tracks: renamed }))).toBe(1);
    expect(names(i.search('kettle'))[0]).toBe('track:Kettle On');
    expect(i.search('lanterns').hits).toEqual([]);
    // t1 gone: its track and its album (B Day) go; Beyoncé stays (t2).
    expect(i.sync(buildSearchDocs({ tracks: renamed.filter((t) => t.id !== 't1') }))).toBe(2);
    expect(i.search('deja vu').hits).toEqual([]);
    expect(names(i.search('beyonce'))[0]).toBe('artist:Beyoncé');
  });
});
