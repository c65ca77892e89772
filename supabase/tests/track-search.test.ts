/**
 * search_tracks (migration 20261122004000): the same matches as the explore screen's filter
 * (src/lib/substring-index.ts) on title, artist, album and genre, newest first, for anyone, with
 * LIKE wildcards taken literally, on both plans (few matches: trigram index; many: created_at).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fieldsContain, normaliseSearch } from '../../src/lib/substring-index';
import { asRole, type JwtClaims } from '../../server/db/as-role';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import { createUser, type TestUser } from '../../server/db/test-factories';

interface Row {
  id: string;
  title: string;
  artist: string;
  album: string | null;
  genre: string | null;
  created_at: string;
}

const test = useTestDatabase();
let uploader: TestUser;
let all: Row[];

/** Rows in bulk as a seed writes them (upload-limit trigger off), with chosen created_at. */
async function insert(rows: Omit<Row, 'id'>[]) {
  await test.db.transaction(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(
      `insert into public.tracks (title, artist, album, genre, audio_url, uploaded_by, created_at, updated_at, status)
       select title, artist, album, genre, 'x.mp3', $2, created_at, created_at, 'ready'
         from json_to_recordset($1::json)
           as r(title text, artist text, album text, genre text, created_at timestamptz)`,
      [JSON.stringify(rows), uploader.id],
    );
  });
}

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

beforeAll(async () => {
  uploader = await createUser(test.db, { name: 'Search Uploader' });
  await insert([
    {
      title: 'Neon Lights',
      artist: 'Aurora Vale',
      album: null,
      genre: 'Synthwave',
      created_at: at(1),
    },
    {
      title: 'Midnight',
      artist: 'The NEONS',
      album: 'After Hours',
      genre: 'Pop',
      created_at: at(2),
    },
    { title: 'Rain', artist: 'Kai', album: 'Blue Neon Skies', genre: null, created_at: at(3) },
    { title: '100% Pure', artist: 'Kai', album: null, genre: 'House', created_at: at(4) },
    { title: 'snake_case', artist: 'Back\\slash', album: null, genre: 'Lo-fi', created_at: at(5) },
    { title: 'Calm', artist: 'Lake', album: 'Drum & Bass', genre: 'Ambient', created_at: at(6) },
  ]);
  // Many matches for 'filler' (more than the function's 2,000 cut-off) and for single letters.
  await insert(
    Array.from({ length: 2100 }, (_, i) => ({
      title: `Filler ${i}`,
      artist: `Band ${i % 37}`,
      album: i % 3 ? `Album ${i % 11}` : null,
      genre: i % 5 ? 'Rock' : null,
      created_at: at(10 + i),
    })),
  );
  await test.db.exec('analyze public.tracks');
  const { rows } = await test.db.query<Row>(
    `select id, title, artist, album, genre, created_at::text from public.tracks`,
  );
  all = rows;
}, DATABASE_HOOK_TIMEOUT_MS);
async function search(
  q: string,
  max = 100,
  claims: JwtClaims | null = uploader.claims,
): Promise<string[]> {
  return asRole(test.db, claims, async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      'select id from public.search_tracks(q => $1, max_results => $2)',
      [q, max],
    );
    return rows.map((r) => r.id);
  });
}

/** The explore screen's filter over every row, newest first then id descending, first `max`. */
function expected(q: string, max = 100): string[] {
  const n = normaliseSearch(q);
  return all
    .filter((r) => !n || fieldsContain([r.title, r.artist, r.album, r.genre], n))
    .sort((a, b) => {
      const ta = Date.parse(a.created_at);
      const tb = Date.parse(b.created_at);
      return tb - ta || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
    })
    .slice(0, max)
    .map((r) => r.id);
}

const titles = (ids: string[]) => ids.map((id) => all.find((r) => r.id === id)?.title);

describe(`search_tracks (${testDatabaseKind()})`, () => {
  it('matches title, artist, album and genre case-insensitively, newest first', async () => {
    expect(titles(await search('  NEON '))).toEqual(['Rain', 'Midnight', 'Neon Lights']);
    expect(titles(await search('synth'))).toEqual(['Neon Lights']);
    expect(titles(await search('after hours'))).toEqual(['Midnight']);
    expect(titles(await search('drum & bass'))).toEqual(['Calm']);
    expect(await search('no such thing')).toEqual([]);
  });

  it('takes %, _ and \\ literally', async () => {
    expect(titles(await search('100%'))).toEqual(['100% Pure']);
    expect(titles(await search('e_c'))).toEqual(['snake_case']);
    expect(titles(await search('k\\s'))).toEqual(['snake_case']);
    expect(await search('%')).toEqual(expected('%'));
    expect(await search('_')).toEqual(expected('_'));
  });

  it('equals the explore filter for rare, common and short texts, blank included', async () => {
    for (const q of [
      '',
      'filler',
      'filler 1',
      'FILLER 20',
      'band 3',
      'album 1',
      'rock',
      'r',
      'ne',
      'kai',
      'lo-f',
      'zz',
    ]) {
      expect(await search(q), q).toEqual(expected(q));
    }
    expect(await search('filler', 7)).toEqual(expected('filler', 7));
    expect(await search('', 1000)).toEqual(expected('', 1000));
  });

  it('takes max_results of 1..1000 and refuses others (22023: a 400), and texts over 1000 characters', async () => {
    expect(await search('filler', 1)).toHaveLength(1);
    expect(await search('filler', 1000)).toHaveLength(1000);
    await expect(search('filler', 0)).rejects.toMatchObject({ code: '22023' });
    await expect(search('filler', 5000)).rejects.toMatchObject({ code: '22023' });
    await expect(search('x'.repeat(1001), 10)).rejects.toMatchObject({ code: '22023' });
  });

  it('is open to visitors (anon) and leaves the planner settings as they were', async () => {
    expect(titles(await search('neon lights', 100, null))).toEqual(['Neon Lights']);
    const settings = await asRole(test.db, null, async (tx) => {
      await tx.query(`select count(*) from public.search_tracks('filler', 10)`);
      await tx.query(`select count(*) from public.search_tracks('neon', 10)`);
      const { rows } = await tx.query<{ s: string; i: string }>(
        `select current_setting('enable_seqscan') as s, current_setting('enable_indexscan') as i`,
      );
      return rows[0];
    });
    expect(settings).toEqual({ s: 'on', i: 'on' });
  });
});
