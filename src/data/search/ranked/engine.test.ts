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
});
