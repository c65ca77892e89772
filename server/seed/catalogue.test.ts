import { describe, expect, it } from 'vitest';
import { buildCatalogue } from './catalogue';
import { LYRICS } from './content/lyrics';
import { initials } from './font';
import { syncLyrics } from './lyrics';
import { Prng } from './prng';

describe('demo catalogue content', () => {
  const catalogue = buildCatalogue();
  const titles = new Set(catalogue.tracks.map((t) => t.title));
  const userKeys = new Set(catalogue.users.map((u) => u.key));

  it('has at least 8 artists, 40 tracks and 6 genres, with unique titles', () => {
    const artists = catalogue.users.filter(
      (u) => u.role === 'artist' || u.role === 'catalogue-artist',
    );
    expect(artists.length).toBeGreaterThanOrEqual(8);
    expect(catalogue.tracks.length).toBeGreaterThanOrEqual(40);
    expect(new Set(catalogue.tracks.map((t) => t.genreLabel)).size).toBeGreaterThanOrEqual(6);
    expect(titles.size).toBe(catalogue.tracks.length);
    for (const a of artists) expect(a.bio?.length).toBeGreaterThan(80);
  });

  it('has albums and singles, 30 s to 3 min per track, 2-3 tracks pending review', () => {
    expect(catalogue.tracks.some((t) => t.album === null)).toBe(true);
    expect(
      new Set(catalogue.tracks.map((t) => t.album).filter(Boolean)).size,
    ).toBeGreaterThanOrEqual(8);
    for (const t of catalogue.tracks) {
      expect(t.seconds).toBeGreaterThanOrEqual(30);
      expect(t.seconds).toBeLessThanOrEqual(180);
    }
    const pending = catalogue.tracks.filter((t) => !t.verified);
    expect(pending.length).toBeGreaterThanOrEqual(2);
    expect(pending.length).toBeLessThanOrEqual(3);
    expect(pending.every((t) => t.plays === 0)).toBe(true);
  });

  it('has the demo accounts and pays the demo artist above the minimum withdrawal', () => {
    const roles = catalogue.users.map((u) => u.role);
    for (const role of ['admin', 'artist', 'listener', 'premium'] as const)
      expect(roles).toContain(role);
    expect(catalogue.users.find((u) => u.role === 'premium')?.plan).toBe('premium');
    const artist = catalogue.users.find((u) => u.role === 'artist');
    expect(artist?.email).toBe('artist@soundloft.local');
    const plays = catalogue.tracks
      .filter((t) => t.artistKey === artist?.key)
      .reduce((n, t) => n + t.plays, 0);
    expect(plays * 0.0021).toBeGreaterThan(5);
  });

  it('has synced lyrics for at least 6 tracks, and playlists, likes, follows and history of known rows', () => {
    expect(catalogue.tracks.filter((t) => t.lyrics).length).toBeGreaterThanOrEqual(6);
    expect(catalogue.playlists.length).toBeGreaterThanOrEqual(4);
    for (const p of catalogue.playlists) {
      expect(userKeys.has(p.owner)).toBe(true);
      expect(p.tracks.length).toBeGreaterThan(3);
      expect(p.tracks.every((t) => titles.has(t))).toBe(true);
      expect(new Set(p.tracks).size).toBe(p.tracks.length);
    }
    for (const [a, b] of catalogue.follows) {
      expect(userKeys.has(a) && userKeys.has(b) && a !== b).toBe(true);
    }
    expect(new Set(catalogue.follows.map((f) => f.join())).size).toBe(catalogue.follows.length);
    for (const l of catalogue.likes) expect(titles.has(l.track) && userKeys.has(l.user)).toBe(true);
    expect(catalogue.history.length).toBeGreaterThan(50);
    for (const h of catalogue.history) expect(titles.has(h.track)).toBe(true);
  });

  it('is the same on every build, and a limit keeps every reference valid', () => {
    expect(JSON.stringify(buildCatalogue())).toBe(JSON.stringify(catalogue));
    const small = buildCatalogue({ limit: 3 });
    expect(small.tracks.map((t) => t.artistKey)).toEqual([
      'neon-harbor',
      'moss-and-static',
      'aurora-fieldnotes',
    ]);
    const smallTitles = new Set(small.tracks.map((t) => t.title));
    expect(small.playlists.every((p) => p.tracks.every((t) => smallTitles.has(t)))).toBe(true);
    expect(small.history.every((h) => smallTitles.has(h.track))).toBe(true);
    expect(small.covers.length).toBe(3);
  });
});

describe('synced lyrics', () => {
  it('start each line on a phrase (bar) start, sorted, with stable ids', () => {
    const def = LYRICS['Harbor Lights']!;
    const phrases = [
      { t: 9.6, kind: 'verse' as const },
      { t: 14.4, kind: 'verse' as const },
      { t: 19.2, kind: 'chorus' as const },
      { t: 24, kind: 'chorus' as const },
      { t: 28.8, kind: 'verse' as const },
    ];
    const lines = syncLyrics(def, phrases, 'seed');
    expect(lines.map((l) => l.timestamp)).toEqual([9.6, 14.4, 19.2, 24, 28.8]);
    expect(lines.map((l) => l.text)).toEqual([
      def.verses[0],
      def.verses[1],
      def.chorus[0],
      def.chorus[1],
      def.verses[2],
    ]);
    expect(lines[2]?.annotation).toBeTruthy();
    expect(syncLyrics(def, phrases, 'seed')).toEqual(lines);
    expect(lines[0]?.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('helpers', () => {
  it('seeded generator repeats, initials skip small words', () => {
    const a = new Prng('x');
    const b = new Prng('x');
    expect([a.next(), a.next()]).toEqual([b.next(), b.next()]);
    expect(initials('The Larkspur Thread')).toBe('LT');
    expect(initials('First Frost (Demo)')).toBe('FF');
    expect(initials('Moss & Static')).toBe('M&');
  });
});
