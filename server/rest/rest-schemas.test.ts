/**
 * Issue 39, restschema's part: several schemas (db-schemas, Accept-Profile / Content-Profile),
 * counts estimated and planned, counts and HEAD on RPC calls, execution plans (db-plan-enabled).
 * PGlite by default, PostgreSQL with TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDbSchemas, parseFlag, restSettingsFromEnv } from './schemas';
import { planRequest } from './explain';
import { startHarness, type RestHarness } from './test-support';

/** A second schema: a table of the same name as a public one, a relationship, a function. */
const PRIVATE_SQL = `
create schema fx_private;
create table fx_private.fx_labels (id int primary key, name text not null);
create table fx_private.fx_bands (
  id int primary key, name text not null, label_id int references fx_private.fx_labels (id)
);
insert into fx_private.fx_labels values (1, 'Parlophone'), (2, 'Warp');
insert into fx_private.fx_bands values (7, 'Private Band', 1), (8, 'Other Private', 2);
create function fx_private.fx_band_count() returns int language sql stable
  as $$ select count(*)::int from fx_private.fx_bands $$;
create function fx_private.fx_unqualified_count() returns int language sql stable
  as $$ select count(*)::int from fx_bands $$;
create function fx_private.fx_labelled(label int) returns setof fx_private.fx_bands language sql stable
  as $$ select * from fx_private.fx_bands where label_id = label $$;
create schema fx_hidden;
create table fx_hidden.fx_bands (id int primary key);
grant usage on schema fx_private, fx_hidden to anon, authenticated;
grant select, insert, update, delete on all tables in schema fx_private, fx_hidden to anon, authenticated;
grant execute on all functions in schema fx_private to anon, authenticated;
`;

const json = async (res: Response) => {
  const text = await res.text();
  return text ? (JSON.parse(text) as unknown) : null;
};

describe('settings from the environment', () => {
  it('REST_DB_SCHEMAS defaults to public; REST_DB_PLAN_ENABLED to off', () => {
    expect(restSettingsFromEnv({})).toEqual({ dbSchemas: ['public'], planEnabled: false });
    expect(parseDbSchemas(' public, personal ,public')).toEqual(['public', 'personal']);
    expect(parseDbSchemas(' , ')).toEqual(['public']);
    expect(parseFlag('X', 'on')).toBe(true);
    expect(parseFlag('X', '1')).toBe(true);
    expect(parseFlag('X', 'off')).toBe(false);
    expect(() => parseFlag('X', 'maybe')).toThrow(/X may be "on" or "off"/);
  });

  it('reads PostgREST plan media types and refuses other options or odd for= values', () => {
    expect(planRequest('application/json')).toBeUndefined();
    expect(planRequest('application/vnd.pgrst.plan')).toEqual({
      format: 'text',
      forMedia: 'application/json',
      options: [],
    });
    expect(
      planRequest(
        'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json"; options=analyze|verbose;',
      ),
    ).toEqual({
      format: 'json',
      forMedia: 'application/vnd.pgrst.object+json',
      options: ['analyze', 'verbose'],
    });
    expect(() => planRequest('application/vnd.pgrst.plan; options=analyze|costs')).toThrow();
    expect(() => planRequest('application/vnd.pgrst.plan; for="a/b\r\nX-Evil: 1"')).toThrow();
  });
});

describe("Soundloft's defaults: public only, no plans", () => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await startHarness(PRIVATE_SQL);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('another schema is 406 PGRST106 naming the exposed ones; public itself is fine', async () => {
    const other = await h.rest('/fx_bands', { headers: { 'Accept-Profile': 'fx_private' } });
    expect(other.status).toBe(406);
    expect(await json(other)).toEqual({
      code: 'PGRST106',
      message: 'The schema must be one of the following: public',
      details: null,
      hint: null,
    });
    const write = await h.rest('/fx_bands', {
      method: 'POST',
      headers: { 'Content-Profile': 'fx_private' },
      body: JSON.stringify({ id: 9, name: 'x' }),
    });
    expect(write.status).toBe(406);
    const rpc = await h.client().schema('fx_private').rpc('fx_band_count');
    expect(rpc.error?.code).toBe('PGRST106');
    const pub = await h.rest('/fx_bands?select=id&id=eq.1', {
      headers: { 'Accept-Profile': 'public' },
    });
    expect(pub.status).toBe(200);
    expect(pub.headers.get('content-profile')).toBe('public');
    // One schema, no profile asked: no Content-Profile (PostgREST's iNegotiatedByProfile).
    const plain = await h.rest('/fx_bands?select=id&id=eq.1');
    expect(plain.headers.get('content-profile')).toBeNull();
  });

  it('GET reads Accept-Profile only, writes Content-Profile only (as PostgREST)', async () => {
    const res = await h.rest('/fx_bands?select=name&id=eq.1', {
      headers: { 'Content-Profile': 'fx_private' },
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual([{ name: 'The Beatles' }]);
  });

  it('an execution plan is not a media type on offer: 406 PGRST107', async () => {
    const res = await h.rest('/fx_bands', {
      headers: { Accept: 'application/vnd.pgrst.plan+json; for="application/json"' },
    });
    expect(res.status).toBe(406);
    expect(await json(res)).toMatchObject({ code: 'PGRST107' });
    const { error } = await h.client().from('fx_bands').select().explain({ format: 'json' });
    expect(error?.code).toBe('PGRST107');
  });
});

describe('db-schemas public,fx_private with db-plan-enabled and no db-max-rows', () => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await startHarness(PRIVATE_SQL, {
      dbSchemas: ['public', 'fx_private'],
      planEnabled: true,
      maxRows: null,
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('reads, embeds and filters a table of the profile, not its public namesake', async () => {
    const { data, error } = await h
      .client()
      .schema('fx_private')
      .from('fx_bands')
      .select('name, fx_labels(name)')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Private Band', fx_labels: { name: 'Parlophone' } },
      { name: 'Other Private', fx_labels: { name: 'Warp' } },
    ]);
    const labels = await h
      .client()
      .schema('fx_private')
      .from('fx_labels')
      .select('name, fx_bands(name)')
      .eq('fx_bands.name', 'Private Band')
      .order('id');
    expect(labels.data).toEqual([
      { name: 'Parlophone', fx_bands: [{ name: 'Private Band' }] },
      { name: 'Warp', fx_bands: [] },
    ]);
    // No profile: the first schema, public.
    const pub = await h.rest('/fx_bands?select=name&id=eq.1');
    expect(await json(pub)).toEqual([{ name: 'The Beatles' }]);
    // Several schemas: the response names the schema even when none was asked for.
    expect(pub.headers.get('content-profile')).toBe('public');
    const priv = await h.rest('/fx_bands?select=name&id=eq.7', {
      headers: { 'Accept-Profile': 'fx_private' },
    });
    expect(priv.headers.get('content-profile')).toBe('fx_private');
    expect(await json(priv)).toEqual([{ name: 'Private Band' }]);
  });

  it('writes go to the Content-Profile schema', async () => {
    const db = h.client().schema('fx_private');
    const ins = await db.from('fx_bands').insert({ id: 9, name: 'Inserted', label_id: 2 }).select();
    expect(ins.error).toBeNull();
    expect(ins.data).toEqual([{ id: 9, name: 'Inserted', label_id: 2 }]);
    const upd = await db.from('fx_bands').update({ name: 'Renamed' }).eq('id', 9).select('name');
    expect(upd.data).toEqual([{ name: 'Renamed' }]);
    const del = await db.from('fx_bands').delete().eq('id', 9).select('id');
    expect(del.data).toEqual([{ id: 9 }]);
    const pub = await h.db.query<{ n: number }>(
      'select count(*)::int as n from public.fx_bands where id = 9',
    );
    expect(pub.rows[0]?.n).toBe(0);
  });

  it('calls functions of the profile, by POST and GET; names it in not-found errors', async () => {
    const db = h.client().schema('fx_private');
    const count = await db.rpc('fx_band_count');
    expect(count.error).toBeNull();
    expect(count.data).toBe(2);
    // search_path is the profile's schema first, as PostgREST sets it: fx_private.fx_bands (2 rows).
    expect((await db.rpc('fx_unqualified_count')).data).toBe(2);
    expect((await h.client().rpc('fx_unqualified_count')).error?.code).toBe('PGRST202');
    const set = await db.rpc('fx_labelled', { label: 1 }, { get: true }).select('name');
    expect(set.data).toEqual([{ name: 'Private Band' }]);
    const missing = await db.rpc('fx_add', { a: 1 });
    expect(missing.error).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function fx_private.fx_add(a) in the schema cache',
      details:
        'Searched for the function fx_private.fx_add with parameters a or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
    });
    const viaGet = await h.rest('/rpc/fx_add?b=1&a=2&select=x&order=y', {
      headers: { 'Accept-Profile': 'fx_private' },
    });
    expect(await json(viaGet)).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function fx_private.fx_add(a, b) in the schema cache',
    });
    const table = await db.from('fx_songs').select();
    expect(table.error).toMatchObject({
      code: 'PGRST205',
      message: "Could not find the table 'fx_private.fx_songs' in the schema cache",
    });
  });

  it('a schema that exists but is not listed stays closed, auth included', async () => {
    for (const schema of ['fx_hidden', 'auth', 'pg_catalog']) {
      const res = await h.rest('/fx_bands', { headers: { 'Accept-Profile': schema } });
      expect(res.status).toBe(406);
      expect(await json(res)).toMatchObject({
        code: 'PGRST106',
        message: 'The schema must be one of the following: public, fx_private',
      });
    }
  });

  it("count=estimated: the larger of the exact count and the planner's, 206 for a partial page", async () => {
    const exact = await h.client().from('fx_songs').select('*', { count: 'exact', head: true });
    const planned = await h.client().from('fx_songs').select('*', { count: 'planned', head: true });
    const estimated = await h
      .client()
      .from('fx_songs')
      .select('*', { count: 'estimated', head: true });
    expect(exact.count).toBe(6);
    expect(planned.count).toBeGreaterThan(0);
    expect(estimated.count).toBe(Math.max(6, planned.count ?? 0));
    const page = await h.rest('/fx_songs?select=id&limit=2', {
      headers: { Prefer: 'count=estimated' },
    });
    expect(page.status).toBe(206);
    expect(page.headers.get('content-range')).toBe(`0-1/${estimated.count}`);
    expect(page.headers.get('preference-applied')).toBe('count=estimated');
  });

  it('count=planned binds only what the count reads (paging, JSON keys, embeds, RPC arguments)', async () => {
    const shapes = [
      '/fx_bands?select=id,meta->label->>name,fx_albums!band_id(title)&fx_albums.title=eq.x&country=eq.UK&limit=1&offset=1',
      '/rpc/fx_numbers?n=5&limit=2',
      '/rpc/fx_bands_from?country=UK&select=name&limit=1',
    ];
    for (const path of shapes) {
      const res = await h.rest(path, { headers: { Prefer: 'count=planned' } });
      const failed = res.status >= 300 ? await res.text() : '';
      expect([path, failed]).toEqual([path, '']);
      expect(res.headers.get('content-range')).toMatch(/^(\d+-\d+|\*)\/\d+$/);
    }
    const post = await h
      .client()
      .rpc('fx_bands_from', { country: 'UK' }, { count: 'planned' })
      .select('name')
      .limit(1);
    expect(post.error).toBeNull();
    expect(post.count).toBeGreaterThan(0);
  });

  it('counts on RPC calls: Content-Range with the total, HEAD and GET too', async () => {
    const anon = h.client();
    const scalar = await anon.rpc('fx_add', { a: 1 }, { count: 'exact' });
    expect(scalar).toMatchObject({ data: 2, count: 1, status: 200 });
    const head = await anon.rpc('fx_add', { a: 1 }, { head: true, count: 'exact' });
    expect(head).toMatchObject({ data: null, count: 1, status: 200, error: null });
    const get = await anon.rpc('fx_add', { a: 1 }, { get: true, count: 'exact' });
    expect(get).toMatchObject({ data: 2, count: 1 });
    const raw = await h.rest('/rpc/fx_add?a=1', { headers: { Prefer: 'count=exact' } });
    expect(raw.headers.get('content-range')).toBe('0-0/1');
    const plain = await h.rest('/rpc/fx_add?a=1');
    expect(plain.headers.get('content-range')).toBe('0-0/*');
    const pair = await h.rest('/rpc/fx_make_pair?n=3', { headers: { Prefer: 'count=exact' } });
    expect(pair.headers.get('content-range')).toBe('0-0/1');
    expect(await json(pair)).toEqual({ left_value: 3, right_value: 'x' });
    const set = await anon.rpc('fx_numbers', { n: 5 }, { count: 'exact' }).range(0, 1);
    expect(set).toMatchObject({ data: [1, 2], count: 5, status: 206 });
    const setHead = await anon.rpc('fx_numbers', { n: 5 }, { head: true, count: 'exact' });
    expect(setHead).toMatchObject({ data: null, count: 5, status: 200 });
  });

  it('explain(): the plan of the read as text or JSON, in the media type PostgREST names', async () => {
    const text = await h.rest('/fx_bands?select=name', {
      headers: { Accept: 'application/vnd.pgrst.plan' },
    });
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8',
    );
    expect(await text.text()).toMatch(/^Aggregate {2}\(cost=[\s\S]*Seq Scan on fx_bands/);
    const { data, error } = await h
      .client()
      .from('fx_bands')
      .select('name')
      .eq('country', 'UK')
      .explain({ format: 'json', verbose: true });
    expect(error).toBeNull();
    const plan = (data as unknown as { Plan: { 'Node Type': string; Output?: unknown } }[])[0];
    expect(plan?.Plan['Node Type']).toBe('Aggregate');
    expect(plan?.Plan.Output).toBeDefined();
    // The test database's user is a superuser: query ids are computed as on hosted Supabase.
    expect(data?.[0]).toHaveProperty('Query Identifier');
    const rpc = await h
      .client()
      .rpc('fx_numbers', { n: 3 })
      .explain({ format: 'json', analyze: true });
    expect(rpc.error).toBeNull();
    expect(
      (rpc.data as unknown as { Plan: { 'Actual Rows': number } }[])[0]?.Plan['Actual Rows'],
    ).toBe(1);
  });

  it('explain({ analyze }) runs in the request role: RLS decides the rows it sees', async () => {
    const me = randomUUID();
    const token = h.userToken(me);
    await h.client(token).from('fx_notes').insert({ body: 'mine' });
    const actual = async (t?: string) => {
      const { data, error } = await h
        .client(t)
        .from('fx_notes')
        .select('body')
        .explain({ analyze: true, format: 'json' });
      expect(error).toBeNull();
      const root = (data as unknown as { Plan: { Plans: { 'Actual Rows': number }[] } }[])[0];
      return root?.Plan.Plans[0]?.['Actual Rows'];
    };
    expect(await actual(token)).toBe(1);
    expect(await actual(h.userToken(randomUUID()))).toBe(0);
    expect(await actual()).toBe(0);
  });

  it('plans of a GET RPC are read-only; table writes have no plan here (406)', async () => {
    const token = h.userToken(randomUUID());
    const res = await h.rest('/rpc/fx_write_note?body=x', {
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/vnd.pgrst.plan+json; options=analyze',
      },
    });
    expect(res.status).toBe(405);
    expect(await json(res)).toMatchObject({ code: '25006' });
    const write = await h.rest('/fx_notes', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/vnd.pgrst.plan+json; options=analyze',
      },
      body: JSON.stringify({ body: 'never' }),
    });
    expect(write.status).toBe(406);
    const notes = await h.db.query<{ n: number }>(
      "select count(*)::int as n from public.fx_notes where body in ('x', 'never')",
    );
    expect(notes.rows[0]?.n).toBe(0);
  });
});
