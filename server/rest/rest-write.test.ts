import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type RestHarness } from './test-support';

let h: RestHarness;
let service: Record<string, string>;
beforeAll(async () => {
  h = await startHarness();
  service = { apikey: h.keys.serviceRoleKey, Authorization: `Bearer ${h.keys.serviceRoleKey}` };
});
afterAll(async () => {
  await h?.close();
});

const json = async (res: Response) => {
  const text = await res.text();
  return text ? (JSON.parse(text) as unknown) : null;
};

describe('insert (POST)', () => {
  it('inserts one row: 201, empty body and Content-Range */* with return=minimal', async () => {
    const res = await h.rest('/fx_songs', {
      method: 'POST',
      headers: service,
      body: JSON.stringify({ album_id: 11, title: 'Eleanor Rigby', seconds: 126 }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-range')).toBe('*/*');
    expect(await res.text()).toBe('');
  });

  it('returns the representation with select and embeds, built by Postgres', async () => {
    const res = await h.rest('/fx_songs?select=title,seconds,album:fx_albums(title)', {
      method: 'POST',
      headers: { ...service, Prefer: 'return=representation' },
      body: JSON.stringify([
        { album_id: 30, title: 'Digital Love', seconds: 301 },
        { album_id: 30, title: 'Aerodynamic', seconds: 212 },
      ]),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('preference-applied')).toBe('return=representation');
    expect(await json(res)).toEqual([
      { title: 'Digital Love', seconds: 301, album: { title: 'Discovery' } },
      { title: 'Aerodynamic', seconds: 212, album: { title: 'Discovery' } },
    ]);
  });

  it('bulk insert with columns= ignores other keys and sets missing ones to null, or DEFAULT with missing=default', async () => {
    const admin = h.client(h.keys.serviceRoleKey);
    const { data, error } = await admin
      .from('fx_songs')
      .insert([
        { album_id: 20, title: 'Airbag', seconds: 284 },
        { album_id: 20, title: 'Lucky' },
      ])
      .select('title,seconds');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Airbag', seconds: 284 },
      { title: 'Lucky', seconds: null },
    ]);
    const res = await h.rest(
      '/fx_songs?columns=album_id,title,created_at&select=title,created_at',
      {
        method: 'POST',
        headers: { ...service, Prefer: 'return=representation,missing=default' },
        body: JSON.stringify([{ album_id: 20, title: 'Exit Music', ignored: 1 }]),
      },
    );
    const rows = (await json(res)) as { created_at: string | null }[];
    expect(res.status).toBe(201);
    expect(rows[0]?.created_at).toBeTruthy();
  });

  it('rejects unknown payload columns (PGRST204) and mismatched keys (PGRST102)', async () => {
    const unknown = await h.rest('/fx_songs', {
      method: 'POST',
      headers: service,
      body: JSON.stringify({ album_id: 10, nope: 1 }),
    });
    expect(unknown.status).toBe(400);
    expect(await json(unknown)).toMatchObject({
      code: 'PGRST204',
      message: "Could not find the 'nope' column of 'fx_songs' in the schema cache",
    });
    const keys = await h.rest('/fx_songs', {
      method: 'POST',
      headers: service,
      body: JSON.stringify([{ album_id: 10, title: 'a' }, { title: 'b' }]),
    });
    expect(await json(keys)).toMatchObject({
      code: 'PGRST102',
      message: 'All object keys must match',
    });
    const bad = await h.rest('/fx_songs', { method: 'POST', headers: service, body: '{not json' });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ code: 'PGRST102' });
  });

  it('maps constraint violations: 23505 and 23503 → 409, 23502 and 23514 → 400', async () => {
    const dup = await h.rest('/fx_bands', {
      method: 'POST',
      headers: service,
      body: JSON.stringify({ id: 1, name: 'Again' }),
    });
    expect(dup.status).toBe(409);
    expect(await json(dup)).toMatchObject({
      code: '23505',
      details: 'Key (id)=(1) already exists.',
    });
    const fk = await h.rest('/fx_albums', {
      method: 'POST',
      headers: service,
      body: JSON.stringify({ id: 99, band_id: 999, title: 'x' }),
    });
    expect(fk.status).toBe(409);
    expect(await json(fk)).toMatchObject({ code: '23503' });
    const notNull = await h.rest('/fx_albums', {
      method: 'POST',
      headers: service,
      body: JSON.stringify({ id: 98, band_id: 1 }),
    });
    expect(notNull.status).toBe(400);
    expect(await json(notNull)).toMatchObject({ code: '23502' });
    const check = await h.rest('/fx_songs', {
      method: 'POST',
      headers: service,
      body: JSON.stringify({ album_id: 10, title: 'neg', seconds: -1 }),
    });
    expect(check.status).toBe(400);
    expect(await json(check)).toMatchObject({ code: '23514' });
  });

  it('upserts with on_conflict: merge-duplicates updates, ignore-duplicates skips', async () => {
    const admin = h.client(h.keys.serviceRoleKey);
    const merged = await admin
      .from('fx_bands')
      .upsert({ id: 4, name: 'Nirvana', country: 'USA' })
      .select('id,country');
    expect(merged.error).toBeNull();
    expect(merged.status).toBe(200);
    expect(merged.data).toEqual([{ id: 4, country: 'USA' }]);
    const inserted = await admin
      .from('fx_bands')
      .upsert({ id: 6, name: 'Portishead', country: 'UK' })
      .select('id');
    expect(inserted.status).toBe(201);
    const ignored = await admin
      .from('fx_songs')
      .upsert(
        { album_id: 10, title: 'Something', seconds: 1 },
        { onConflict: 'album_id,title', ignoreDuplicates: true },
      )
      .select('seconds');
    expect(ignored.error).toBeNull();
    expect(ignored.data).toEqual([]);
    const stored = await admin.from('fx_songs').select('seconds').eq('title', 'Something').single();
    expect(stored.data).toEqual({ seconds: 182 });
  });

  it('headers-only returns a Location for the new row', async () => {
    const res = await h.rest('/fx_bands', {
      method: 'POST',
      headers: { ...service, Prefer: 'return=headers-only' },
      body: JSON.stringify({ id: 7, name: 'Air' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/fx_bands?id=eq.7');
  });
});

describe('update (PATCH), upsert (PUT), delete', () => {
  it('PATCH: 204 minimal with Content-Range 0-N/*, 200 with representation (filters not re-applied)', async () => {
    const res = await h.rest('/fx_bands?country=eq.FR', {
      method: 'PATCH',
      headers: service,
      body: JSON.stringify({ formed: 1994 }),
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('content-range')).toBe('0-0/*');
    const rep = await h.rest('/fx_bands?country=eq.FR&select=id,country', {
      method: 'PATCH',
      headers: { ...service, Prefer: 'return=representation,count=exact' },
      body: JSON.stringify({ country: 'France' }),
    });
    expect(rep.status).toBe(200);
    expect(rep.headers.get('content-range')).toBe('0-0/1');
    expect(await json(rep)).toEqual([{ id: 3, country: 'France' }]);
  });

  it('refuses an unfiltered PATCH or DELETE like hosted Supabase (pg-safeupdate)', async () => {
    const res = await h.rest('/fx_bands', {
      method: 'PATCH',
      headers: service,
      body: JSON.stringify({ formed: 1 }),
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({
      code: '21000',
      message: 'UPDATE requires a WHERE clause',
    });
  });

  it('PUT upserts one row by its primary key filter, with PostgREST’s checks', async () => {
    const put = (path: string, body: unknown, prefer = 'return=representation') =>
      h.rest(path, {
        method: 'PUT',
        headers: { ...service, Prefer: prefer },
        body: JSON.stringify(body),
      });
    const created = await put('/fx_bands?id=eq.8', { id: 8, name: 'Blur', country: 'UK' });
    expect(created.status).toBe(201);
    const updated = await put('/fx_bands?id=eq.8', { id: 8, name: 'Blur', country: 'GB' });
    expect(updated.status).toBe(200);
    expect(await json(updated)).toEqual([
      {
        id: 8,
        name: 'Blur',
        country: 'GB',
        formed: null,
        tags: null,
        meta: null,
        search: "'blur':1",
      },
    ]);
    expect((await put('/fx_bands?id=eq.8', { id: 8, name: 'Blur' }, 'return=minimal')).status).toBe(
      204,
    );
    const mismatch = await put('/fx_bands?id=eq.8', { id: 9, name: 'x' });
    expect(await json(mismatch)).toMatchObject({ code: 'PGRST115' });
    const notPk = await put('/fx_bands?name=eq.Blur', { id: 8, name: 'x' });
    expect(notPk.status).toBe(405);
    expect(await json(notPk)).toMatchObject({ code: 'PGRST105' });
  });

  it('DELETE: 204, or the deleted rows; single object rolls back when not exactly one row', async () => {
    const many = await h.rest('/fx_songs?album_id=eq.30', {
      method: 'DELETE',
      headers: { ...service, Accept: 'application/vnd.pgrst.object+json' },
    });
    expect(many.status).toBe(406);
    expect(await json(many)).toMatchObject({ code: 'PGRST116' });
    const still = await h
      .client(h.keys.serviceRoleKey)
      .from('fx_songs')
      .select('id', { count: 'exact', head: true })
      .eq('album_id', 30);
    expect(still.count).toBeGreaterThan(1);
    const one = await h.rest('/fx_songs?title=eq.Aerodynamic&select=title', {
      method: 'DELETE',
      headers: { ...service, Prefer: 'return=representation' },
    });
    expect(one.status).toBe(200);
    expect(await json(one)).toEqual([{ title: 'Aerodynamic' }]);
    const gone = await h.rest('/fx_songs?title=eq.Aerodynamic', {
      method: 'DELETE',
      headers: service,
    });
    expect(gone.status).toBe(204);
    expect(gone.headers.get('content-range')).toBe('*/*');
  });

  it('Prefer: tx=rollback is ignored, as with PostgREST’s default db-tx-end=commit (hosted Supabase)', async () => {
    const res = await h.rest('/fx_bands?select=id', {
      method: 'POST',
      headers: { ...service, Prefer: 'return=representation,tx=rollback' },
      body: JSON.stringify({ id: 50, name: 'Ghost' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('preference-applied')).toBe('return=representation');
    const after = await h.client(h.keys.serviceRoleKey).from('fx_bands').select('id').eq('id', 50);
    expect(after.data).toEqual([{ id: 50 }]);
  });
});

describe('RLS and privileges through supabase-js', () => {
  it('each user sees and writes only their own rows; auth.uid() comes from the JWT', async () => {
    const alice = randomUUID();
    const bob = randomUUID();
    const asAlice = h.client(h.userToken(alice));
    const asBob = h.client(h.userToken(bob));
    const created = await asAlice
      .from('fx_notes')
      .insert({ body: 'alice note' })
      .select('body,owner')
      .single();
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ body: 'alice note', owner: alice });
    expect((await asBob.from('fx_notes').select('*')).data).toEqual([]);
    const forged = await asBob.from('fx_notes').insert({ body: 'as alice', owner: alice });
    expect(forged.status).toBe(403);
    expect(forged.error?.code).toBe('42501');
    const upd = await asBob.from('fx_notes').update({ body: 'hacked' }).eq('owner', alice).select();
    expect(upd.data).toEqual([]);
    expect((await asAlice.from('fx_notes').select('body')).data).toEqual([{ body: 'alice note' }]);
  });

  it('42501 is 401 for anon and 403 for an authenticated role', async () => {
    const anon = await h.rest('/fx_secrets');
    expect(anon.status).toBe(401);
    expect(await json(anon)).toMatchObject({
      code: '42501',
      message: 'permission denied for table fx_secrets',
    });
    const user = await h.rest('/fx_secrets', {
      headers: { Authorization: `Bearer ${h.userToken(randomUUID())}` },
    });
    expect(user.status).toBe(403);
  });
});

describe('bodies read from the socket', () => {
  const stream = (chunks: Uint8Array[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(chunk);
        c.close();
      },
    });
  // Chunked (no Content-Length): the 1 MiB bound holds while reading, not only on the header.
  it('refuses a chunked body past 1 MiB with 413 and serves the next request', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    const res = await h.rest('/fx_bands', {
      method: 'POST',
      headers: { ...service, 'Content-Type': 'application/json' },
      body: stream(Array.from({ length: 40 }, () => chunk)),
      duplex: 'half',
    } as RequestInit & { headers: Record<string, string> });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('PGRST413');
    const next = await h.rest('/fx_bands?id=eq.1&select=id');
    expect(await next.json()).toEqual([{ id: 1 }]);
  });

  it('reads a chunked body in pieces, multi-byte characters split across them', async () => {
    const bytes = new TextEncoder().encode('{"id":98,"name":"Sigur Rós"}');
    const split = bytes.indexOf(0xc3) + 1; // inside the two bytes of ó
    const res = await h.rest('/fx_bands', {
      method: 'POST',
      headers: { ...service, 'Content-Type': 'application/json', Prefer: 'return=representation' },
      body: stream([bytes.slice(0, split), bytes.slice(split)]),
      duplex: 'half',
    } as RequestInit & { headers: Record<string, string> });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { name: string }[])[0]?.name).toBe('Sigur Rós');
    await h.db.query('delete from public.fx_bands where id = 98');
  });
});
