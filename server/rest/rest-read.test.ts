import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRestServer } from './serve';
import { startHarness, type RestHarness } from './test-support';

let h: RestHarness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await h.rest(path, { headers });
  const text = await res.text();
  return {
    res,
    status: res.status,
    body: text ? (JSON.parse(text) as unknown) : null,
    headers: res.headers,
  };
}

describe('select grammar', () => {
  it('selects columns, aliases, casts and JSON paths', async () => {
    const { status, body } = await get(
      '/fx_bands?select=id,band:name,formed::text,label:meta->label->>name,members:meta->members&id=eq.1',
    );
    expect(status).toBe(200);
    expect(body).toEqual([
      { id: 1, band: 'The Beatles', formed: '1960', label: 'EMI', members: 4 },
    ]);
  });

  it('defaults to every column, typed by Postgres (arrays, json, numeric)', async () => {
    const { body } = await get('/fx_albums?id=eq.10');
    expect(body).toEqual([
      {
        id: 10,
        band_id: 1,
        producer_id: 3,
        title: 'Abbey Road',
        released: '1969-09-26',
        rating: 9.5,
      },
    ]);
  });

  it('embeds many-to-one and one-to-many, nested, with embedded order and limit', async () => {
    const { body } = await get(
      '/fx_albums?select=title,band:fx_bands!band_id(name),fx_songs(title,seconds)&fx_songs.order=seconds.desc&fx_songs.limit=1&order=id&limit=2',
    );
    expect(body).toEqual([
      {
        title: 'Abbey Road',
        band: { name: 'The Beatles' },
        fx_songs: [{ title: 'Come Together', seconds: 259 }],
      },
      {
        title: 'Revolver',
        band: { name: 'The Beatles' },
        fx_songs: [{ title: 'Taxman', seconds: 159 }],
      },
    ]);
    const nested = await get(
      '/fx_bands?select=name,fx_albums!band_id(title,fx_songs(title))&id=eq.2',
    );
    expect(nested.body).toEqual([
      {
        name: 'Radiohead',
        fx_albums: [
          {
            title: 'OK Computer',
            fx_songs: [{ title: 'Paranoid Android' }, { title: 'Karma Police' }],
          },
        ],
      },
    ]);
  });

  it('reports an ambiguous embed with 300 PGRST201 and resolves it by FK name or column hint', async () => {
    const amb = await get('/fx_albums?select=title,fx_bands(name)');
    expect(amb.status).toBe(300);
    expect(amb.body).toMatchObject({ code: 'PGRST201' });
    const byFk = await get(
      '/fx_albums?select=title,producer:fx_bands!fx_albums_producer_id_fkey(name)&id=eq.10',
    );
    expect(byFk.body).toEqual([{ title: 'Abbey Road', producer: { name: 'Daft Punk' } }]);
    const byColumn = await get('/fx_albums?select=title,producer_id(name)&id=eq.11');
    expect(byColumn.body).toEqual([{ title: 'Revolver', producer_id: null }]);
  });

  it('!inner drops parents without a match; embedded filters filter the children only otherwise', async () => {
    const inner = await get(
      '/fx_albums?select=title,fx_songs!inner(title)&fx_songs.title=eq.Taxman',
    );
    expect(inner.body).toEqual([{ title: 'Revolver', fx_songs: [{ title: 'Taxman' }] }]);
    const left = await get(
      '/fx_albums?select=title,fx_songs(title)&fx_songs.title=eq.Taxman&order=id',
    );
    expect((left.body as unknown[]).length).toBe(4);
    const nullness = await get(
      '/fx_bands?select=name,fx_albums!band_id(id)&fx_albums=is.null&order=id',
    );
    expect(nullness.body).toEqual([
      { name: 'Nirvana', fx_albums: [] },
      { name: 'Unknown Band', fx_albums: [] },
    ]);
    const empty = await get('/fx_albums?select=title,fx_songs!inner()&fx_songs.seconds=gt.300');
    expect(empty.body).toEqual([{ title: 'OK Computer' }, { title: 'Discovery' }]);
  });

  it('embeds many-to-many through a junction table, both ways, with embedded filters', async () => {
    const { body } = await get(
      '/fx_bands?select=name,fx_genres(name)&fx_genres.order=name&id=in.(1,5)&order=id',
    );
    expect(body).toEqual([
      { name: 'The Beatles', fx_genres: [{ name: 'pop' }, { name: 'rock' }] },
      { name: 'Unknown Band', fx_genres: [] },
    ]);
    const reverse = await get(
      '/fx_genres?select=name,bands:fx_bands!fx_band_genres!inner(name)&bands.name=like.*head&order=id',
    );
    expect(reverse.body).toEqual([{ name: 'rock', bands: [{ name: 'Radiohead' }] }]);
  });

  it('counts related rows with table(count), filters applied', async () => {
    const { body } = await get(
      '/fx_bands?select=name,fx_albums!band_id(count)&id=in.(1,4)&order=id',
    );
    expect(body).toEqual([
      { name: 'The Beatles', fx_albums: [{ count: 2 }] },
      { name: 'Nirvana', fx_albums: [{ count: 0 }] },
    ]);
    const filtered = await get(
      '/fx_albums?select=title,songs:fx_songs(total:count)&songs.seconds=gt.200&id=eq.10',
    );
    expect(filtered.body).toEqual([{ title: 'Abbey Road', songs: [{ total: 1 }] }]);
  });

  // A to-many spread (PostgREST 13): rest-embed.test.ts.
  it('spreads a to-one embed into the parent, keeping types', async () => {
    const { body } = await get(
      '/fx_albums?select=title,...fx_bands!band_id(band:name,formed)&id=eq.20',
    );
    expect(body).toEqual([{ title: 'OK Computer', band: 'Radiohead', formed: 1985 }]);
  });

  it('unknown relationship is 400 PGRST200, unknown column 400 42703, unknown table 404 PGRST205', async () => {
    expect((await get('/fx_bands?select=*,nothing(*)')).body).toMatchObject({ code: 'PGRST200' });
    const col = await get('/fx_bands?select=nope');
    expect(col.status).toBe(400);
    expect(col.body).toMatchObject({
      code: '42703',
      message: 'column fx_bands.nope does not exist',
    });
    const table = await get('/fx_bandz');
    expect(table.status).toBe(404);
    expect(table.body).toEqual({
      code: 'PGRST205',
      message: "Could not find the table 'public.fx_bandz' in the schema cache",
      details: null,
      hint: "Perhaps you meant the table 'public.fx_bands'",
    });
  });

  it('a filter on an embed that is not selected is PGRST108', async () => {
    expect((await get('/fx_albums?select=title&fx_songs.title=eq.x')).body).toMatchObject({
      code: 'PGRST108',
    });
  });
});

describe('filters', () => {
  const ids = async (query: string) =>
    ((await get(`/fx_bands?select=id&order=id&${query}`)).body as { id: number }[]).map(
      (r) => r.id,
    );

  it('compares with eq neq gt gte lt lte', async () => {
    expect(await ids('formed=gt.1985')).toEqual([3, 4]);
    expect(await ids('formed=gte.1985')).toEqual([2, 3, 4]);
    expect(await ids('formed=lt.1985')).toEqual([1]);
    expect(await ids('formed=lte.1985')).toEqual([1, 2]);
    expect(await ids('country=eq.UK')).toEqual([1, 2]);
    expect(await ids('country=neq.UK')).toEqual([3, 4]);
  });

  it('matches patterns with like ilike match imatch (* is %)', async () => {
    expect(await ids('name=like.*head')).toEqual([2]);
    expect(await ids('name=ilike.the*')).toEqual([1]);
    expect(await ids('name=match.^[DN]')).toEqual([3, 4]);
    expect(await ids('name=imatch.^r')).toEqual([2]);
    expect(await ids('name=like(any).{*Punk,Nir*}')).toEqual([3, 4]);
  });

  it('is null/true/false/unknown, in (with quotes), not.', async () => {
    expect(await ids('country=is.null')).toEqual([5]);
    expect(await ids('country=not.is.null')).toEqual([1, 2, 3, 4]);
    expect(await ids('name=in.("The Beatles",Nirvana)')).toEqual([1, 4]);
    expect(await ids('id=not.in.(1,2,3)')).toEqual([4, 5]);
    expect(await ids('id=in.()')).toEqual([]);
    expect((await get('/fx_songs?select=id&lyrics=is.unknown')).status).toBe(400);
  });

  it('array and json containment: cs cd ov', async () => {
    expect(await ids('tags=cs.{rock}')).toEqual([1, 2, 4]);
    expect(await ids('tags=cd.{rock,pop,electronic}')).toEqual([1, 3]);
    expect(await ids('tags=ov.{grunge,electronic}')).toEqual([3, 4]);
    expect(await ids('meta=cs.{"members":5}')).toEqual([2]);
  });

  it('full text search: fts plfts phfts wfts, with a configuration, on tsvector and text columns', async () => {
    expect(await ids('search=fts.beatles')).toEqual([1]);
    expect(await ids('search=plfts(english).daft punk')).toEqual([3]);
    expect(await ids('search=phfts(english).the beatles')).toEqual([1]);
    expect(await ids('search=wfts(english).radiohead or nirvana')).toEqual([2, 4]);
    const songs = await get('/fx_songs?select=title&lyrics=fts(english).celebrate');
    expect(songs.body).toEqual([{ title: 'One More Time' }]);
  });

  it('nested or/and logic trees, negated, on JSON paths too', async () => {
    expect(await ids('or=(country.eq.FR,formed.lt.1970)')).toEqual([1, 3]);
    expect(await ids('or=(country.eq.US,and(country.eq.UK,formed.gt.1980))')).toEqual([2, 4]);
    expect(await ids('not.or=(country.eq.UK,country.is.null)')).toEqual([3, 4]);
    expect(await ids('and=(formed.gte.1960,or(name.ilike.*punk*,name.eq."The Beatles"))')).toEqual([
      1, 3,
    ]);
    expect(await ids('meta->label->>name=eq.XL')).toEqual([2]);
    expect(await ids('or=(meta->>members.eq.2,id.eq.5)')).toEqual([3, 5]);
  });

  it('parse errors are 400 PGRST100', async () => {
    for (const q of [
      'id=zz.1',
      'or=(id.eq.1',
      'select=id,(',
      'order=id.sideways',
      'limit=-1',
      'id=in.1,2',
    ]) {
      const r = await get(`/fx_bands?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body, q).toMatchObject({ code: 'PGRST100' });
    }
  });
});

describe('order, limit, range and counts', () => {
  it('orders with nullsfirst / nullslast on several columns', async () => {
    const r = await get('/fx_bands?select=id&order=country.desc.nullsfirst,id.asc');
    expect((r.body as { id: number }[]).map((x) => x.id)).toEqual([5, 4, 1, 2, 3]);
    const last = await get('/fx_bands?select=id&order=formed.asc.nullslast');
    expect((last.body as { id: number }[]).map((x) => x.id)).toEqual([1, 2, 4, 3, 5]);
  });

  it('orders by a column of a to-one embed (related order)', async () => {
    const r = await get(
      '/fx_albums?select=id,band:fx_bands!band_id(name)&order=band(name).desc,id.asc',
    );
    expect((r.body as { id: number }[]).map((x) => x.id)).toEqual([10, 11, 20, 30]);
    const toMany = await get('/fx_bands?select=id,fx_albums!band_id(title)&order=fx_albums(title)');
    expect(toMany.body).toMatchObject({ code: 'PGRST118' });
  });

  it('Content-Range without count is 0-N/*, with count=exact 0-N/total and 206 for a partial page', async () => {
    const plain = await get('/fx_bands?select=id&limit=2');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-range')).toBe('0-1/*');
    const counted = await get('/fx_bands?select=id&limit=2&offset=1', { Prefer: 'count=exact' });
    expect(counted.status).toBe(206);
    expect(counted.headers.get('content-range')).toBe('1-2/5');
    expect(counted.headers.get('preference-applied')).toBe('count=exact');
    const all = await get('/fx_bands?select=id', { Prefer: 'count=exact' });
    expect(all.status).toBe(200);
    expect(all.headers.get('content-range')).toBe('0-4/5');
    const none = await get('/fx_bands?id=eq.999', { Prefer: 'count=exact' });
    expect(none.headers.get('content-range')).toBe('*/0');
    const planned = await get('/fx_bands?select=id', { Prefer: 'count=planned' });
    expect(planned.headers.get('content-range')).toMatch(/^0-4\/\d+$/);
  });

  it('honours Range headers, intersected with limit/offset, and answers 416 past the end', async () => {
    const r = await get('/fx_bands?select=id&order=id', { Range: '1-2', 'Range-Unit': 'items' });
    expect(r.body).toEqual([{ id: 2 }, { id: 3 }]);
    expect(r.headers.get('content-range')).toBe('1-2/*');
    const past = await get('/fx_bands?select=id&offset=10', { Prefer: 'count=exact' });
    expect(past.status).toBe(416);
    expect(past.body).toMatchObject({
      code: 'PGRST103',
      details: 'An offset of 10 was requested, but there are only 5 rows.',
    });
  });

  it('HEAD answers headers only', async () => {
    const res = await h.rest('/fx_bands?select=id', {
      method: 'HEAD',
      headers: { Prefer: 'count=exact' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe('0-4/5');
    expect(await res.text()).toBe('');
  });
});

describe('single object and media types', () => {
  it('returns one object, or 406 PGRST116 with the row count', async () => {
    const one = await get('/fx_bands?select=name&id=eq.3', {
      Accept: 'application/vnd.pgrst.object+json',
    });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ name: 'Daft Punk' });
    expect(one.headers.get('content-type')).toContain('application/vnd.pgrst.object+json');
    const many = await get('/fx_bands?select=name', {
      Accept: 'application/vnd.pgrst.object+json',
    });
    expect(many.status).toBe(406);
    expect(many.body).toEqual({
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 5 rows',
      hint: null,
    });
  });

  it('answers text/csv like PostgREST (supabase-js .csv())', async () => {
    const { data, error } = await h
      .client()
      .from('fx_bands')
      .select('id,name,country')
      .lte('id', 2)
      .order('id')
      .csv();
    expect(error).toBeNull();
    expect(data).toBe('id,name,country\n1,"The Beatles",UK\n2,Radiohead,UK');
  });

  it('strips nulls when asked and refuses media types it cannot produce', async () => {
    const stripped = await get('/fx_bands?select=id,country&id=eq.5', {
      Accept: 'application/vnd.pgrst.array+json;nulls=stripped',
    });
    expect(stripped.body).toEqual([{ id: 5 }]);
    const csv = await get('/fx_bands', { Accept: 'text/html' });
    expect(csv.status).toBe(406);
    expect(csv.body).toMatchObject({ code: 'PGRST107' });
  });
});

describe('db-max-rows', () => {
  it('caps every read (hosted Supabase default 1000) and estimated counts go planned beyond it', async () => {
    const capped = await startRestServer({ db: h.db, keys: h.keys, maxRows: 2 });
    try {
      const res = await fetch(`${capped.url}/rest/v1/fx_bands?select=id&order=id`, {
        headers: { apikey: h.keys.anonKey, Prefer: 'count=exact' },
      });
      expect(await res.json()).toEqual([{ id: 1 }, { id: 2 }]);
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe('0-1/5');
      const limited = await fetch(`${capped.url}/rest/v1/fx_bands?select=id&limit=1`, {
        headers: { apikey: h.keys.anonKey },
      });
      expect(await limited.json()).toHaveLength(1);
      const estimated = await fetch(`${capped.url}/rest/v1/fx_bands?select=id`, {
        headers: { apikey: h.keys.anonKey, Prefer: 'count=estimated' },
      });
      expect(estimated.headers.get('content-range')).toMatch(/^0-1\/\d+$/);
    } finally {
      await capped.close();
    }
  });
});

describe('compiled reads reused by URL shape', () => {
  it('binds each request its own values on a reused shape', async () => {
    const names = async (path: string) => {
      const { status, body } = await get(path);
      if (!Array.isArray(body)) throw new Error(`${path}: ${status} ${JSON.stringify(body)}`);
      return (body as { name: string }[]).map((b) => b.name);
    };
    for (let round = 0; round < 2; round++) {
      expect(await names('/fx_bands?select=name&id=eq.1')).toEqual(['The Beatles']);
      expect(await names('/fx_bands?select=name&id=eq.3')).toEqual(['Daft Punk']);
      expect(await names('/fx_bands?select=name&id=not.eq.1&formed=lt.1990&order=id')).toEqual([
        'Radiohead',
        'Nirvana',
      ]);
      expect(await names('/fx_bands?select=name&id=not.eq.2&formed=lt.1990&order=id')).toEqual([
        'The Beatles',
        'Nirvana',
      ]);
      // A value holding what a shape key or marker could be made of stays a value.
      expect(
        await names(`/fx_bands?select=name&name=eq.${encodeURIComponent('x&id=eq.1')}`),
      ).toEqual([]);
      // NUL, which the template's markers are made of, is refused by Postgres as before.
      expect(
        (await get(`/fx_bands?select=name&name=eq.${encodeURIComponent('\u00000\u0000')}`)).status,
      ).toBe(400);
      expect(await names(`/fx_bands?select=name&name=eq.${encodeURIComponent('Nirvana')}`)).toEqual(
        ['Nirvana'],
      );
    }
  });

  it('keeps headers that change the SQL apart (Accept, Range, Prefer)', async () => {
    const one = await get('/fx_bands?select=name&id=eq.2', {
      Accept: 'application/vnd.pgrst.object+json',
    });
    expect(one.body).toEqual({ name: 'Radiohead' });
    const many = await get('/fx_bands?select=name&id=eq.2');
    expect(many.body).toEqual([{ name: 'Radiohead' }]);
    const counted = await get('/fx_bands?select=name&id=gte.2', { Prefer: 'count=exact' });
    expect(counted.headers.get('content-range')).toBe('0-3/4');
    const ranged = await get('/fx_bands?select=name&id=gte.2&order=id', { Range: '1-1' });
    expect(ranged.body).toEqual([{ name: 'Daft Punk' }]);
    const plain = await get('/fx_bands?select=name&id=gte.2&order=id');
    expect(plain.body).toHaveLength(4);
  });

  it('answers the same through the node:http fast path and through Hono', async () => {
    // `fx_%62ands` is not a plain path: Hono decodes and routes it (server/rest/node.ts).
    const fast = await h.rest('/fx_bands?select=name&id=eq.4');
    const hono = await h.rest('/fx_%62ands?select=name&id=eq.4');
    expect(fast.status).toBe(200);
    expect(hono.status).toBe(200);
    expect(await fast.text()).toBe(await hono.text());
    for (const name of ['content-type', 'content-range', 'access-control-allow-origin'])
      expect(fast.headers.get(name)).toBe(hono.headers.get(name));
    const head = await h.rest('/fx_bands?id=eq.4', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-range')).toBe('0-0/*');
    expect(await head.text()).toBe('');
  });
});
