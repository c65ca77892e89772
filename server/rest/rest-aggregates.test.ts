/**
 * Aggregates in `select=` (server/rest/aggregates.ts), as PostgREST 12/13 with
 * db-aggregates-enabled: one server with the switch on and one with the default (off) on the same
 * fixture database (test-support.ts: songs of 259, 182 | 159 | 387, 264 | 320 seconds on albums
 * 10 | 11 | 20 | 30).
 */
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregatesEnabledFromEnv } from './aggregates';
import { parseSelect } from './parse-select';
import { startRestServer, type RunningRestServer } from './serve';
import { startHarness, type RestHarness } from './test-support';

let h: RestHarness;
let on: RunningRestServer;
beforeAll(async () => {
  h = await startHarness();
  on = await startRestServer({ db: h.db, keys: h.keys, aggregatesEnabled: true });
});
afterAll(async () => {
  await on?.close();
  await h?.close();
});

async function get(path: string, server: 'on' | 'off' = 'on') {
  const base = server === 'on' ? on.url : h.url;
  const res = await fetch(`${base}/rest/v1${path}`, { headers: { apikey: h.keys.anonKey } });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** Rows sorted by their JSON text, for groups whose order the request does not fix. */
const sorted = (rows: unknown) =>
  [...(rows as unknown[])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('aggregate grammar (parse-select.ts hook)', () => {
  it('parses count(), col.fn(), aliases and casts on both sides', () => {
    expect(parseSelect('n:count()::text,amount::int.sum()::text,id.max(),x')).toEqual([
      {
        kind: 'column',
        field: { name: '*', path: [] },
        alias: 'n',
        aggregate: { fn: 'count', cast: 'text' },
      },
      {
        kind: 'column',
        field: { name: 'amount', path: [] },
        alias: undefined,
        cast: 'int',
        aggregate: { fn: 'sum', cast: 'text' },
      },
      {
        kind: 'column',
        field: { name: 'id', path: [] },
        alias: undefined,
        cast: undefined,
        aggregate: { fn: 'max', cast: undefined },
      },
      { kind: 'column', field: { name: 'x', path: [] }, alias: undefined, cast: undefined },
    ]);
    // Inside an embed, and `count` alone stays a column (the embed's lone count).
    expect(parseSelect('t(count,v.avg())')[0]).toMatchObject({
      kind: 'embed',
      select: [
        { kind: 'column', field: { name: 'count' } },
        { kind: 'column', field: { name: 'v' }, aggregate: { fn: 'avg' } },
      ],
    });
  });
});

describe('REST_DB_AGGREGATES_ENABLED', () => {
  it('is off unless set to true/on/1; other values stop the server from starting', () => {
    for (const v of [undefined, '', 'false', 'off', '0', ' FALSE ']) {
      expect(aggregatesEnabledFromEnv(v), String(v)).toBe(false);
    }
    for (const v of ['true', 'on', '1', 'True']) expect(aggregatesEnabledFromEnv(v), v).toBe(true);
    expect(() => aggregatesEnabledFromEnv('yes please')).toThrow(/REST_DB_AGGREGATES_ENABLED/);
  });
});

describe('aggregates switched off (the default, as PostgREST db-aggregates-enabled)', () => {
  it('refuses every aggregate with 400 PGRST123, before looking at columns', async () => {
    for (const select of [
      'count()',
      'seconds.sum()',
      'album_id,total:seconds.max()',
      'title,fx_albums(rating.avg())',
      'nope.count()',
    ]) {
      const { status, body } = await get(`/fx_songs?select=${select}`, 'off');
      expect(status, select).toBe(400);
      expect(body, select).toEqual({
        code: 'PGRST123',
        message: 'Use of aggregate functions is not allowed',
        details: null,
        hint: null,
      });
    }
  });

  it("keeps an embed's lone count working", async () => {
    const { status, body } = await get(
      '/fx_bands?select=name,fx_albums!band_id(count)&id=in.(1,4)&order=id',
      'off',
    );
    expect(status).toBe(200);
    expect(body).toEqual([
      { name: 'The Beatles', fx_albums: [{ count: 2 }] },
      { name: 'Nirvana', fx_albums: [{ count: 0 }] },
    ]);
  });
});

describe('aggregates switched on', () => {
  it('count(), sum, avg, min, max and col.count() over all rows, named after the function', async () => {
    expect((await get('/fx_songs?select=count()')).body).toEqual([{ count: 6 }]);
    const { status, body } = await get(
      '/fx_songs?select=seconds.sum(),seconds.min(),seconds.max(),lyrics.count()',
    );
    expect(status).toBe(200);
    expect(body).toEqual([{ sum: 1571, min: 159, max: 387, count: 5 }]);
    const avg = (await get('/fx_songs?select=seconds.avg()')).body as [{ avg: number }];
    expect(avg[0].avg).toBeCloseTo(261.8333, 3);
  });

  it('groups by the other selected columns, with aliases', async () => {
    const { body } = await get(
      '/fx_songs?select=album_id,total:seconds.sum(),songs:count()&order=album_id',
    );
    expect(body).toEqual([
      { album_id: 10, total: 441, songs: 2 },
      { album_id: 11, total: 159, songs: 1 },
      { album_id: 20, total: 651, songs: 2 },
      { album_id: 30, total: 320, songs: 1 },
    ]);
    // Filters apply before grouping; a JSON path groups by its (bound) key too.
    const filtered = await get(
      '/fx_songs?select=album_id,count()&seconds=gt.200&order=album_id.desc',
    );
    expect(filtered.body).toEqual([
      { album_id: 30, count: 1 },
      { album_id: 20, count: 2 },
      { album_id: 10, count: 1 },
    ]);
    const labels = await get('/fx_bands?select=label:meta->label->>name,count()');
    expect(sorted(labels.body)).toEqual(
      sorted([
        { label: 'EMI', count: 1 },
        { label: 'XL', count: 1 },
        { label: 'Virgin', count: 1 },
        { label: null, count: 2 },
      ]),
    );
  });

  it('casts the column before (col::type.fn()) and the result after (fn()::type)', async () => {
    const { body } = await get(
      '/fx_songs?select=seconds::text.max(),total:seconds.sum()::text,seconds.avg()::int4&album_id=eq.10',
    );
    // max over text: '259' > '182'; the sum as text; avg 220.5 rounded by the int cast.
    expect(body).toEqual([{ max: '259', total: '441', avg: 221 }]);
  });

  it('aggregates inside an embed per parent row, grouped by the embed’s other columns', async () => {
    const { body } = await get(
      '/fx_albums?select=title,fx_songs(total:seconds.sum(),n:count())&id=in.(10,20,30)&order=id',
    );
    expect(body).toEqual([
      { title: 'Abbey Road', fx_songs: [{ total: 441, n: 2 }] },
      { title: 'OK Computer', fx_songs: [{ total: 651, n: 2 }] },
      { title: 'Discovery', fx_songs: [{ total: 320, n: 1 }] },
    ]);
    const grouped = await get(
      '/fx_bands?select=name,fx_albums!band_id(producer_id,count())&id=eq.1',
    );
    const [beatles] = grouped.body as [{ fx_albums: unknown[] }];
    expect(sorted(beatles.fx_albums)).toEqual(
      sorted([
        { producer_id: 3, count: 1 },
        { producer_id: null, count: 1 },
      ]),
    );
    // The lone `count` of an embed still answers with aggregates on.
    const lone = await get('/fx_bands?select=name,fx_albums!band_id(count)&id=eq.4');
    expect(lone.body).toEqual([{ name: 'Nirvana', fx_albums: [{ count: 0 }] }]);
  });

  it('groups by an embedded resource selected next to an aggregate', async () => {
    const { body } = await get('/fx_albums?select=band:fx_bands!band_id(name),count()');
    expect(sorted(body)).toEqual(
      sorted([
        { band: { name: 'The Beatles' }, count: 2 },
        { band: { name: 'Radiohead' }, count: 1 },
        { band: { name: 'Daft Punk' }, count: 1 },
      ]),
    );
  });

  it('hoists aggregates out of a to-one spread into the level it spreads into', async () => {
    // Grouped by the spread column: albums per country of their band.
    const byCountry = await get('/fx_albums?select=...fx_bands!band_id(country),count()');
    expect(sorted(byCountry.body)).toEqual(
      sorted([
        { country: 'UK', count: 3 },
        { country: 'FR', count: 1 },
      ]),
    );
    // An aggregate written inside the spread is computed over the parent's rows.
    const best = await get('/fx_songs?select=...fx_albums(band_id,best:rating.max(),count())');
    expect(sorted(best.body)).toEqual(
      sorted([
        { band_id: 1, best: 9.5, count: 3 },
        { band_id: 2, best: 9.8, count: 2 },
        { band_id: 3, best: 8.9, count: 1 },
      ]),
    );
    // count() in a spread counts the parent rows that have a spread row (left join).
    const produced = await get('/fx_albums?select=...fx_bands!producer_id(count())');
    expect(produced.body).toEqual([{ count: 2 }]);
  });

  it('aggregates the rows of a set-returning RPC, GET and POST', async () => {
    const getRpc = await get('/rpc/fx_bands_from?country=UK&select=country,n:count(),formed.min()');
    expect(getRpc).toEqual({ status: 200, body: [{ country: 'UK', n: 2, min: 1960 }] });
    const res = await fetch(
      `${on.url}/rest/v1/rpc/fx_song_list?select=total:seconds.sum(),id.count()`,
      {
        method: 'POST',
        headers: { apikey: h.keys.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ min_seconds: 260 }),
      },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ total: 971, count: 3 }]);
  });

  it("aggregates a write's representation", async () => {
    const res = await fetch(`${on.url}/rest/v1/fx_songs?select=album_id,n:count(),seconds.sum()`, {
      method: 'POST',
      headers: {
        apikey: h.keys.anonKey,
        'Content-Type': 'application/json',
        Prefer: 'return=representation',
      },
      body: JSON.stringify([
        { album_id: 30, title: 'Aerodynamic', seconds: 212 },
        { album_id: 30, title: 'Digital Love', seconds: 301 },
      ]),
    });
    expect(await res.json()).toEqual([{ album_id: 30, n: 2, sum: 513 }]);
    expect(res.status).toBe(201);
    await h.db.exec(`delete from public.fx_songs where title in ('Aerodynamic', 'Digital Love')`);
  });

  it('aggregates only the rows RLS lets the caller see', async () => {
    const [alice, bob] = [crypto.randomUUID(), crypto.randomUUID()];
    await h.db.exec(
      `insert into public.fx_notes (owner, body) values ('${alice}', 'a1'), ('${alice}', 'a2'), ('${bob}', 'b1')`,
    );
    const count = async (token?: string) => {
      const res = await fetch(`${on.url}/rest/v1/fx_notes?select=count()`, {
        headers: { apikey: h.keys.anonKey, ...(token && { Authorization: `Bearer ${token}` }) },
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    expect(await count(h.userToken(alice))).toEqual({ status: 200, body: [{ count: 2 }] });
    expect(await count(h.userToken(bob))).toEqual({ status: 200, body: [{ count: 1 }] });
    expect((await count()).body).toEqual([{ count: 0 }]);
    // No grant, no aggregate: Postgres refuses the table itself.
    const secret = await get('/fx_secrets?select=count()');
    expect(secret.status).toBe(401);
    expect(secret.body).toMatchObject({ code: '42501' });
  });

  it('works through supabase-js', async () => {
    const client = createClient(on.url, h.keys.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      // Node 20 has no global WebSocket; realtime is never opened here.
      realtime: { transport: (() => undefined) as never },
    });
    const { data, error } = await client
      .from('fx_songs')
      .select('album_id, seconds.max()')
      .in('album_id', [10, 11])
      .order('album_id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { album_id: 10, max: 259 },
      { album_id: 11, max: 159 },
    ]);
  });

  it('answers errors as PostgREST 13 words them', async () => {
    expect(await get('/fx_bands?select=alias:nope.count()')).toEqual({
      status: 400,
      body: {
        code: '42703',
        message: 'column fx_bands.nope does not exist',
        details: null,
        hint: null,
      },
    });
    // `embed.count()` on a table is an aggregate of a column of that name, not an embed.
    expect((await get('/fx_albums?select=title,fx_bands.count()')).body).toMatchObject({
      code: '42703',
      message: 'column fx_albums.fx_bands does not exist',
    });
    // A bare `sum` is a column; embedded tables are named `<table>_<depth>` as in PostgREST's SQL.
    expect((await get('/fx_bands?select=name,fx_albums!band_id(sum)')).body).toMatchObject({
      code: '42703',
      message: 'column fx_albums_1.sum does not exist',
    });
    for (const select of ['seconds.median()', 'count(id)', 'seconds.sum']) {
      const { status, body } = await get(`/fx_songs?select=${select}`);
      expect(status, select).toBe(400);
      expect(body, select).toMatchObject({ code: 'PGRST100' });
    }
    // A column that is neither aggregated nor grouped cannot be ordered by: Postgres says so.
    const order = await get('/fx_songs?select=album_id,count()&order=title');
    expect(order.status).toBe(400);
    expect(order.body).toMatchObject({ code: '42803' });
  });
});
