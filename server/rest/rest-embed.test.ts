/**
 * Resource embedding as PostgREST 12/13 answers it (issue 39): spreads (to-one and to-many),
 * `!inner`/`!left`, one-to-one, relationships through views, computed fields and relationships,
 * the same embed twice. On PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type RestHarness } from './test-support';

const EMBED_SQL = `
create table public.fx_studios (id int primary key, name text not null);
create table public.fx_studio_details (
  studio_id int primary key references public.fx_studios (id), city text not null
);
insert into public.fx_studios values (1, 'Abbey Road Studios'), (2, 'Sunset Sound');
insert into public.fx_studio_details values (1, 'London');
create view public.fx_band_cards as select b.id as band_id, b.name as band_name from public.fx_bands b;
create view public.fx_album_cards as select a.id, a.band_id, a.title from public.fx_albums a;
create view public.fx_album_refs as select c.id as album, c.band_id as band from public.fx_album_cards c;
create view public.fx_odd_cards as
  with a as (select id, band_id as "band {id} (x)", title from public.fx_albums where rating > 9)
  select s.id, s."band {id} (x)", s.title, s.title as "title, again" from (select * from a) s;
create view public.fx_twice as select a.id, a.band_id as first_band, a.band_id as second_band from public.fx_albums a;
create function public.fx_band_label(public.fx_bands) returns text language sql stable
  as $$ select $1.name || ' (' || $1.country || ')' $$;
create function public.fx_song_count(public.fx_albums) returns int language sql stable
  as $$ select count(*)::int from public.fx_songs s where s.album_id = $1.id $$;
create function public.fx_long_songs(public.fx_albums) returns setof public.fx_songs language sql stable
  as $$ select * from public.fx_songs s where s.album_id = $1.id and s.seconds > 200 $$;
create function public.fx_producer(public.fx_albums) returns setof public.fx_bands rows 1 language sql stable
  as $$ select * from public.fx_bands b where b.id = $1.producer_id $$;
`;

let h: RestHarness;
beforeAll(async () => {
  h = await startHarness(EMBED_SQL);
});
afterAll(async () => {
  await h?.close();
});

async function get(path: string) {
  const res = await h.rest(path);
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

describe('spread embeds', () => {
  it('spreads a to-many embed as one array per column, in the embed order, [] when none', async () => {
    const { status, body } = await get(
      '/fx_bands?select=name,...fx_albums!band_id(title,rating)&id=in.(1,4)&order=id&fx_albums.order=id.desc',
    );
    expect(status).toBe(200);
    expect(body).toEqual([
      { name: 'The Beatles', title: ['Revolver', 'Abbey Road'], rating: [9.2, 9.5] },
      { name: 'Nirvana', title: [], rating: [] },
    ]);
  });

  it('pages a to-many spread, spreads many-to-many, and !inner drops parents with none', async () => {
    const paged = await get(
      '/fx_bands?select=name,...fx_albums!band_id(title)&id=eq.1&fx_albums.order=id&fx_albums.limit=1',
    );
    expect(paged.body).toEqual([{ name: 'The Beatles', title: ['Abbey Road'] }]);
    const m2m = await get(
      '/fx_bands?select=id,...fx_genres(genre:name)&id=eq.1&fx_genres.order=name',
    );
    expect(m2m.body).toEqual([{ id: 1, genre: ['pop', 'rock'] }]);
    const inner = await get('/fx_bands?select=id,...fx_albums!band_id!inner(title)&order=id');
    expect((inner.body as { id: number }[]).map((b) => b.id)).toEqual([1, 2, 3]);
  });

  it('nests embeds and spreads inside a to-many spread', async () => {
    const { body } = await get(
      '/fx_bands?select=name,...fx_albums!band_id(title,...fx_songs(song:title))&id=eq.2',
    );
    expect(body).toEqual([
      { name: 'Radiohead', title: ['OK Computer'], song: [['Paranoid Android', 'Karma Police']] },
    ]);
  });

  it('the same embed twice at one level is 42712, as Postgres answers PostgREST', async () => {
    const twice = await get('/fx_albums?select=fx_bands!band_id(name),fx_bands!producer_id(name)');
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({
      code: '42712',
      details: null,
      hint: null,
      message: 'table name "fx_albums_fx_bands_1" specified more than once',
    });
    const aliased = await get(
      '/fx_albums?select=band:fx_bands!band_id(name),producer:fx_bands!producer_id(name)&id=eq.10',
    );
    expect(aliased.body).toEqual([
      { band: { name: 'The Beatles' }, producer: { name: 'Daft Punk' } },
    ]);
    const column = await get('/fx_albums?select=id,title,id,t:title&id=eq.10');
    expect(column.body).toEqual([{ id: 10, title: 'Abbey Road', t: 'Abbey Road' }]);
  });
});

describe('one-to-one, !inner and !left', () => {
  it('a foreign key that is also the primary key embeds an object both ways', async () => {
    const studios = await get('/fx_studios?select=name,fx_studio_details(city)&order=id');
    expect(studios.body).toEqual([
      { name: 'Abbey Road Studios', fx_studio_details: { city: 'London' } },
      { name: 'Sunset Sound', fx_studio_details: null },
    ]);
    const details = await get('/fx_studio_details?select=city,fx_studios(name)');
    expect(details.body).toEqual([{ city: 'London', fx_studios: { name: 'Abbey Road Studios' } }]);
  });

  it('!inner keeps rows with a related row, !left keeps them all', async () => {
    const inner = await get('/fx_studios?select=name,fx_studio_details!inner(city)');
    expect(inner.body).toEqual([
      { name: 'Abbey Road Studios', fx_studio_details: { city: 'London' } },
    ]);
    const left = await get('/fx_studios?select=id,fx_studio_details!left(city)&order=id');
    expect((left.body as unknown[]).length).toBe(2);
    const many = await get('/fx_bands?select=id,fx_albums!band_id!inner(id)&order=id');
    expect((many.body as { id: number }[]).map((b) => b.id)).toEqual([1, 2, 3]);
  });
});

describe('embedded filters in or/and trees', () => {
  it('or mixes a root column with embed.not.is.null (the embed filtered by its own params)', async () => {
    const { status, body } = await get(
      '/fx_bands?select=id,fx_albums!band_id(title)&fx_albums.rating=gte.9.6&or=(country.eq.FR,fx_albums.not.is.null)&order=id',
    );
    expect(status).toBe(200);
    expect(body).toEqual([
      { id: 2, fx_albums: [{ title: 'OK Computer' }] },
      { id: 3, fx_albums: [] },
    ]);
    const none = await get(
      '/fx_bands?select=id,fx_albums!band_id()&and=(fx_albums.is.null,country.not.is.null)&order=id',
    );
    expect(none.body).toEqual([{ id: 4 }]);
    const counted = await h.rest(
      '/fx_bands?select=id,fx_albums!band_id()&or=(fx_albums.is.null,id.eq.1)',
      {
        headers: { Prefer: 'count=exact' },
      },
    );
    expect(counted.headers.get('content-range')).toBe('0-2/3');
    const bad = await get(
      '/fx_bands?select=id,fx_albums!band_id(title)&or=(fx_albums.eq.1,id.eq.1)',
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'PGRST120' });
  });
});

describe('relationships through views', () => {
  it('a view over the referenced table is embeddable from the referencing table', async () => {
    const { status, body } = await get(
      '/fx_albums?select=title,fx_band_cards!band_id(band_name)&id=eq.10',
    );
    expect(status).toBe(200);
    expect(body).toEqual([{ title: 'Abbey Road', fx_band_cards: { band_name: 'The Beatles' } }]);
    // Two foreign keys reach the view's band_id: ambiguous without a hint, as PostgREST.
    const ambiguous = await get('/fx_albums?select=title,fx_band_cards(band_name)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.body).toMatchObject({ code: 'PGRST201' });
  });

  it('a view exposing a foreign key column embeds its target, and the reverse is to-many', async () => {
    const toOne = await get('/fx_album_cards?select=title,fx_bands(name)&id=eq.20');
    expect(toOne.body).toEqual([{ title: 'OK Computer', fx_bands: { name: 'Radiohead' } }]);
    const toMany = await get(
      '/fx_bands?select=name,fx_album_cards(title)&id=eq.1&fx_album_cards.order=id',
    );
    expect(toMany.body).toEqual([
      { name: 'The Beatles', fx_album_cards: [{ title: 'Abbey Road' }, { title: 'Revolver' }] },
    ]);
  });

  it('follows a view over a view, and joins a view to a view', async () => {
    const nested = await get('/fx_album_refs?select=album,fx_bands(name)&album=eq.30');
    expect(nested.body).toEqual([{ album: 30, fx_bands: { name: 'Daft Punk' } }]);
    const viewToView = await get('/fx_album_cards?select=id,fx_band_cards(band_name)&id=eq.30');
    expect(viewToView.body).toEqual([{ id: 30, fx_band_cards: { band_name: 'Daft Punk' } }]);
  });

  it('reads columns through CTEs and subqueries, with escaped names', async () => {
    const { status, body } = await get(
      '/fx_odd_cards?select=title,fx_bands(name)&order=id&limit=2',
    );
    expect(status).toBe(200);
    expect(body).toEqual([
      { title: 'Abbey Road', fx_bands: { name: 'The Beatles' } },
      { title: 'Revolver', fx_bands: { name: 'The Beatles' } },
    ]);
  });

  it('one foreign key column exposed twice gives two relationships, told apart by hint', async () => {
    const ambiguous = await get('/fx_twice?select=id,fx_bands(name)');
    expect(ambiguous.status).toBe(300);
    const hinted = await get('/fx_twice?select=id,fx_bands!second_band(name)&id=eq.20');
    expect(hinted.body).toEqual([{ id: 20, fx_bands: { name: 'Radiohead' } }]);
  });

  it('a foreign key column as the target still names the table, not a view over it', async () => {
    const { status, body } = await get('/fx_albums?select=title,band_id(name)&id=eq.11');
    expect(status).toBe(200);
    expect(body).toEqual([{ title: 'Revolver', band_id: { name: 'The Beatles' } }]);
  });
});

describe('computed fields and relationships', () => {
  it('selects, filters and orders a function of the row, which * leaves out', async () => {
    const { status, body } = await get(
      '/fx_albums?select=title,songs:fx_song_count&fx_song_count=gte.1&order=fx_song_count.desc,id',
    );
    expect(status).toBe(200);
    expect(body).toEqual([
      { title: 'Abbey Road', songs: 2 },
      { title: 'OK Computer', songs: 2 },
      { title: 'Revolver', songs: 1 },
      { title: 'Discovery', songs: 1 },
    ]);
    const star = await get('/fx_albums?select=*&id=eq.10');
    expect(Object.keys((star.body as object[])[0] ?? {})).not.toContain('fx_song_count');
    const embedded = await get('/fx_bands?select=name,fx_albums!band_id(*,fx_song_count)&id=eq.2');
    expect(embedded.body).toMatchObject([
      { name: 'Radiohead', fx_albums: [{ id: 20, title: 'OK Computer', fx_song_count: 2 }] },
    ]);
  });

  it('embeds a set-returning function of the row (to-many; to-one with rows 1)', async () => {
    const many = await get('/fx_albums?select=title,fx_long_songs(title)&id=eq.10');
    expect(many.body).toEqual([
      { title: 'Abbey Road', fx_long_songs: [{ title: 'Come Together' }] },
    ]);
    const one = await get('/fx_albums?select=id,fx_producer(name)&id=in.(10,11)&order=id');
    expect(one.body).toEqual([
      { id: 10, fx_producer: { name: 'Daft Punk' } },
      { id: 11, fx_producer: null },
    ]);
    const inner = await get('/fx_albums?select=id,fx_producer!inner(name)&order=id');
    expect((inner.body as { id: number }[]).map((a) => a.id)).toEqual([10, 30]);
  });

  it('works on the rows a function returns (RPC over a table row type)', async () => {
    const { status, body } = await get(
      '/rpc/fx_bands_from?country=UK&select=name,fx_band_label,fx_albums!band_id(title,fx_song_count,fx_producer(name))&fx_albums.order=id&order=id',
    );
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        name: 'The Beatles',
        fx_band_label: 'The Beatles (UK)',
        fx_albums: [
          { title: 'Abbey Road', fx_song_count: 2, fx_producer: { name: 'Daft Punk' } },
          { title: 'Revolver', fx_song_count: 1, fx_producer: null },
        ],
      },
      {
        name: 'Radiohead',
        fx_band_label: 'Radiohead (UK)',
        fx_albums: [{ title: 'OK Computer', fx_song_count: 2, fx_producer: null }],
      },
    ]);
  });

  it('an unknown column is still 42703', async () => {
    const { status, body } = await get('/fx_albums?select=fx_nothing');
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: '42703' });
  });
});
