/**
 * The relevance set (tests/search/relevance-set.ts) against the server's `search_catalogue`
 * (docs/search.md "Server: the plan"): the demo catalogue's published tracks and lyrics in a
 * test database, each query asked as anon. The server answers tracks only, so a track case
 * expects that track, an artist or album case a track of that artist or album (the app derives
 * the artist and album results from the tracks it merges), and playlist cases are left out (the
 * mirror holds the playlists). PGlite here; PostgreSQL in `npm run test:postgres`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { asRole } from '../../server/db/as-role';
import { DATABASE_HOOK_TIMEOUT_MS } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import { createUser } from '../../server/db/test-factories';
import { demoSearchCatalogue } from './demo-catalogue';
import { RELEVANCE_SET } from './relevance-set';

const test = useTestDatabase();
const CASES = RELEVANCE_SET.filter((c) => !c.expect.startsWith('playlist:'));

interface Row {
  title: string;
  artist: string;
  album: string | null;
}
const outcomes: { query: string; expect: string; rank: number | null; top: string[] }[] = [];

beforeAll(async () => {
  const demo = demoSearchCatalogue();
  const uploader = await createUser(test.db, { name: 'Demo Uploader' });
  // As a seed writes them (triggers off): the search tables' triggers fire all the same.
  await test.db.transaction(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(
      `insert into public.tracks (id, title, artist, album, genre, plays, audio_url, uploaded_by,
       status)
     select id, title, artist, album, genre, plays, 'x.mp3', $2, 'ready'
       from json_to_recordset($1::json)
         as r(id uuid, title text, artist text, album text, genre text, plays int)`,
      [
        JSON.stringify(
          demo.tracks.map((t, i) => ({
            // testTrack ids are keys, not uuids: number them.
            id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
            title: t.title,
            artist: t.artist,
            album: t.album,
            genre: t.genre,
            plays: t.plays,
          })),
        ),
        uploader.id,
      ],
    );
  });
  const lyrics = demo.tracks.flatMap((t, i) => {
    const text = demo.lyrics.get(t.id);
    if (!text) return [];
    const id = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    return [{ id, lyrics: text.split('\n').map((line, n) => ({ id: `l${n}`, text: line })) }];
  });
  await test.db.query(
    `insert into public.track_lyrics (track_id, lyrics)
     select id, lyrics from json_to_recordset($1::json) as r(id uuid, lyrics jsonb)`,
    [JSON.stringify(lyrics)],
  );
  for (const k of CASES) {
    const rows = await asRole(test.db, null, async (tx) => {
      const { rows } = await tx.query<Row>(
        'select title, artist, album from public.search_catalogue($1, 20)',
        [k.query],
      );
      return rows;
    });
    const [kind, name] = [
      k.expect.slice(0, k.expect.indexOf(':')),
      k.expect.slice(k.expect.indexOf(':') + 1),
    ];
    const at = rows.findIndex((r) =>
      kind === 'track'
        ? r.title === name
        : kind === 'artist'
          ? r.artist === name
          : r.album === name,
    );
    outcomes.push({
      query: k.query,
      expect: k.expect,
      rank: at < 0 ? null : at + 1,
      top: rows.slice(0, 3).map((r) => `${r.title} / ${r.artist}`),
    });
  }
}, DATABASE_HOOK_TIMEOUT_MS);

describe('search_catalogue over the relevance set (server side)', () => {
  const share = (n: number) =>
    outcomes.filter((o) => o.rank !== null && o.rank <= n).length / outcomes.length;
  const misses = () =>
    outcomes
      .filter((o) => o.rank !== 1)
      .map((o) => `${o.query} → ${o.expect}: rank ${o.rank ?? '-'} (${o.top.join(', ')})`)
      .join('\n');

  it('asks every track, artist, album and lyrics case', () => {
    expect(outcomes.length).toBe(CASES.length);
    expect(CASES.length).toBeGreaterThanOrEqual(60);
  });

  it('puts the expected result first for at least 85 % of the queries', () => {
    expect(share(1), misses()).toBeGreaterThanOrEqual(0.85);
  });

  it('puts the expected result in the top 5 for at least 95 % of the queries', () => {
    expect(share(5), misses()).toBeGreaterThanOrEqual(0.95);
  });
});
