/**
 * search_catalogue (migrations 20261130070000 and 20261201060000, docs/search.md "Ranked
 * search" and "Server: the plan"): typo tolerant, diacritics and case folded, words in any
 * order, lyrics weighted low, plays as the tie-breaker, likes and follows a small boost, RLS
 * applied (hidden, taken-down and banned stay hidden), the search tables kept by triggers and
 * private, arguments checked. PGlite and `npm run test:postgres`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { asRole, type JwtClaims } from '../../server/db/as-role';
import { DATABASE_HOOK_TIMEOUT_MS } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import { createAdmin, createUser, type TestUser } from '../../server/db/test-factories';

const test = useTestDatabase();
let uploader: TestUser;
let listener: TestUser;

interface Seed {
  title: string;
  artist: string;
  album: string | null;
  genre: string | null;
  plays: number;
  status?: string;
}

async function insert(rows: Seed[]) {
  await test.db.transaction(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(
      `insert into public.tracks (title, artist, album, genre, plays, audio_url, uploaded_by, status)
       select title, artist, album, genre, plays, 'x.mp3', $2, coalesce(status, 'ready')
         from json_to_recordset($1::json)
           as r(title text, artist text, album text, genre text, plays int, status text)`,
      [JSON.stringify(rows), uploader.id],
    );
  });
}

beforeAll(async () => {
  uploader = await createUser(test.db, { name: 'Catalogue Uploader' });
  listener = await createUser(test.db, { name: 'Catalogue Listener' });
  await insert([
    {
      title: 'Harbor Lights',
      artist: 'Neon Harbor',
      album: 'Midnight Transit',
      genre: 'Synthwave',
      plays: 900,
    },
    {
      title: 'Night Ferry',
      artist: 'Neon Harbor',
      album: 'Midnight Transit',
      genre: 'Synthwave',
      plays: 50,
    },
    {
      title: 'Paper Lanterns',
      artist: 'Juniper Vale',
      album: 'Paper Lanterns',
      genre: 'Folk',
      plays: 30,
    },
    { title: 'Déjà Vu', artist: 'Beyoncé', album: 'B Day', genre: 'R&B', plays: 10 },
    { title: 'Halo', artist: 'Cover Band', album: null, genre: 'Pop', plays: 5 },
    { title: 'Halo', artist: 'Beyoncé', album: 'I Am', genre: 'Pop', plays: 5000 },
    { title: 'Kettle On', artist: 'Moss & Static', album: null, genre: 'Lo-fi', plays: 70 },
    {
      title: 'Secret Harbor',
      artist: 'Hidden',
      album: null,
      genre: null,
      plays: 1,
      status: 'processing',
    },
  ]);
  const { rows } = await test.db.query<{ id: string }>(
    `select id from public.tracks where title = 'Kettle On'`,
  );
  await test.db.query(`insert into public.track_lyrics (track_id, lyrics) values ($1, $2::jsonb)`, [
    rows[0]!.id,
    JSON.stringify([{ id: 'l1', text: 'Steam on the glass draws a crooked line', timestamp: 0 }]),
  ]);
  await test.db.exec('analyze public.tracks');
}, DATABASE_HOOK_TIMEOUT_MS);

async function titles(q: string, max = 20, claims: JwtClaims | null = listener.claims) {
  return asRole(test.db, claims, async (tx) => {
    const { rows } = await tx.query<{ title: string; artist: string }>(
      'select title, artist from public.search_catalogue(q => $1, max_results => $2)',
      [q, max],
    );
    return rows.map((r) => `${r.title} / ${r.artist}`);
  });
}

describe('search_catalogue', () => {
  it('finds exact, prefix and swapped words first', async () => {
    expect((await titles('harbor lights'))[0]).toBe('Harbor Lights / Neon Harbor');
    expect((await titles('harb'))[0]).toBe('Harbor Lights / Neon Harbor');
    expect((await titles('lights harbor'))[0]).toBe('Harbor Lights / Neon Harbor');
  });

  it('forgives typos', async () => {
    expect((await titles('papr lanterns'))[0]).toBe('Paper Lanterns / Juniper Vale');
    expect((await titles('harbor lites'))[0]).toBe('Harbor Lights / Neon Harbor');
  });

  it('folds diacritics and case both ways', async () => {
    expect((await titles('beyonce deja vu'))[0]).toBe('Déjà Vu / Beyoncé');
    expect((await titles('DÉJÀ'))[0]).toBe('Déjà Vu / Beyoncé');
  });

  it('breaks ties by plays', async () => {
    expect((await titles('halo')).slice(0, 2)).toEqual(['Halo / Beyoncé', 'Halo / Cover Band']);
  });

  it('finds a lyrics line, below title matches', async () => {
    expect(await titles('crooked line')).toEqual(['Kettle On / Moss & Static']);
  });

  it('applies RLS: a track still processing stays hidden from others', async () => {
    expect(await titles('secret harbor', 20)).not.toContain('Secret Harbor / Hidden');
    expect(await titles('secret harbor', 20, uploader.claims)).toContain('Secret Harbor / Hidden');
  });

  it('answers anon, returns nothing for blank text, and respects max_results', async () => {
    expect((await titles('harbor', 1, null)).length).toBe(1);
    expect(await titles('   ')).toEqual([]);
    expect(await titles('zzzqqq')).toEqual([]);
  });

  it('refuses max_results outside 1..100 and over-long text (22023)', async () => {
    await expect(titles('harbor', 0)).rejects.toThrow(/max_results/);
    await expect(titles('harbor', 101)).rejects.toThrow(/max_results/);
    await expect(titles('x'.repeat(201))).rejects.toThrow(/at most 200/);
  });

  it('ranks a very common word’s most played match even beyond the first 1,000 rows', async () => {
    // 1,100 equal title matches of `drizzle` with few plays, then the most played one, stored
    // last: the words' GIN index yields matches in table order, and 1,000 are ranked.
    const rows = Array.from({ length: 1100 }, (_, i) => ({
      title: `Drizzle Song ${i}`,
      artist: 'Weather Desk',
      album: null,
      genre: null,
      plays: i % 50,
    }));
    await insert([
      ...rows,
      {
        title: 'Drizzle Song Star',
        artist: 'Weather Desk',
        album: null,
        genre: null,
        plays: 45000,
      },
    ]);
    expect((await titles('drizzle', 5))[0]).toBe('Drizzle Song Star / Weather Desk');
    expect((await titles('drizzl', 5))[0], 'a prefix').toBe('Drizzle Song Star / Weather Desk');
    expect((await titles('drizle', 5))[0], 'a typo').toBe('Drizzle Song Star / Weather Desk');
    await test.db.query(`delete from public.tracks where artist = 'Weather Desk'`);
  });

  it('forgives 1 edit from 4 letters and 2 from 8, not more', async () => {
    expect((await titles('ketle'))[0]).toBe('Kettle On / Moss & Static');
    expect((await titles('lanterns'))[0]).toBe('Paper Lanterns / Juniper Vale');
    expect((await titles('lantrens'))[0]).toBe('Paper Lanterns / Juniper Vale'); // 2 edits, 8 letters
    expect(await titles('lantrnz'), '2 edits in 7 letters').toEqual([]);
    expect(await titles('hlao'), '2 edits in 4 letters').not.toContain('Halo / Beyoncé');
  });

  it('keeps its words as tracks are added, renamed and deleted', async () => {
    const words = async () =>
      (
        await test.db.query<{ word: string }>(
          `select word from search.words where word like 'quill%'`,
        )
      ).rows.map((r) => r.word);
    const { rows } = await test.db.query<{ id: string }>(
      `insert into public.tracks (title, artist, audio_url, uploaded_by, status)
       values ('Quillfeather', 'Ink Static', 'q.mp3', $1, 'ready') returning id`,
      [uploader.id],
    );
    expect(await titles('quilfeather')).toEqual(['Quillfeather / Ink Static']);
    expect(await words()).toEqual(['quillfeather']);
    await test.db.query(`update public.tracks set title = 'Quillstorm' where id = $1`, [
      rows[0]!.id,
    ]);
    expect(await titles('quilfeather')).toEqual([]);
    expect(await titles('quillstrom')).toEqual(['Quillstorm / Ink Static']);
    expect(await words()).toEqual(['quillstorm']);
    await test.db.query(`delete from public.tracks where id = $1`, [rows[0]!.id]);
    expect(await titles('quillstorm')).toEqual([]);
    expect(await words()).toEqual([]);
  });

  it('follows plays, take-downs and bans at once', async () => {
    await test.db.query(`update public.tracks set plays = 1000000 where artist = 'Cover Band'`);
    expect((await titles('halo')).slice(0, 2)).toEqual(['Halo / Cover Band', 'Halo / Beyoncé']);
    await test.db.query(`update public.tracks set plays = 5 where artist = 'Cover Band'`);
    expect((await titles('halo'))[0]).toBe('Halo / Beyoncé');

    await test.db.query(
      `update public.tracks set taken_down_at = now() where title = 'Night Ferry'`,
    );
    expect(await titles('night ferry')).not.toContain('Night Ferry / Neon Harbor');
    expect(await titles('night ferry', 20, uploader.claims)).toContain('Night Ferry / Neon Harbor');
    await test.db.query(
      `update public.tracks set taken_down_at = null where title = 'Night Ferry'`,
    );
    expect(await titles('night ferry')).toContain('Night Ferry / Neon Harbor');

    const banned = await createUser(test.db, { name: 'Banned Listener' });
    await test.db.query(
      `insert into public.account_sanctions (user_id, kind, reason) values ($1, 'ban', 'Fraud.')`,
      [banned.id],
    );
    expect(await titles('harbor', 20, banned.claims)).toEqual([]);
  });

  it('boosts a little what the listener liked or whose uploader they follow', async () => {
    // Two equal Halos by plays: the liked one first for the listener, by id for anyone else.
    await test.db.query(`update public.tracks set plays = 5000 where title = 'Halo'`);
    const { rows } = await test.db.query<{ id: string; artist: string }>(
      `select id, artist from public.tracks where title = 'Halo' order by id desc`,
    );
    const last = rows[0]!;
    expect((await titles('halo', 20, null))[1]).toBe(`Halo / ${last.artist}`);
    await test.db.query(`insert into public.liked_tracks (user_id, track_id) values ($1, $2)`, [
      listener.id,
      last.id,
    ]);
    expect((await titles('halo'))[0]).toBe(`Halo / ${last.artist}`);
    expect((await titles('halo', 20, null))[0]).not.toBe(`Halo / ${last.artist}`);
    await test.db.query(`delete from public.liked_tracks where user_id = $1`, [listener.id]);
    await test.db.query(`update public.tracks set plays = 5 where artist = 'Cover Band'`);
  });

  it('keeps the search schema private: no table reads, ranked ids only of listed or own tracks', async () => {
    await expect(
      asRole(test.db, listener.claims, (tx) => tx.query(`select * from search.words`)),
    ).rejects.toThrow(/permission denied/);
    await expect(
      asRole(test.db, null, (tx) => tx.query(`select * from search.tracks`)),
    ).rejects.toThrow(/permission denied/);
    const ranked = (claims: JwtClaims | null) =>
      asRole(test.db, claims, async (tx) => {
        const { rows } = await tx.query<{ title: string }>(
          `select t.title from search.ranked('secret harbor', 50) r
             join public.tracks t on t.id = r.track_id`,
        );
        return rows.map((r) => r.title);
      });
    expect(await ranked(listener.claims)).not.toContain('Secret Harbor');
    expect(await ranked(uploader.claims)).toContain('Secret Harbor');
    // As RLS shows admins every track, so does their search.
    const admin = await createAdmin(test.db);
    expect(await titles('secret harbor', 20, admin.claims)).toContain('Secret Harbor / Hidden');
  });

  it('restores the trigram threshold', async () => {
    const value = await asRole(test.db, null, async (tx) => {
      await tx.query(`select count(*) from public.search_catalogue('papr', 5)`);
      const { rows } = await tx.query<{ v: string }>(
        `select current_setting('pg_trgm.word_similarity_threshold') as v`,
      );
      return rows[0]!.v;
    });
    expect(value).toBe('0.6');
  });
});
