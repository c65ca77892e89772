/**
 * Writes that return a representation under column privileges: RETURNING lists the columns the
 * request's `select` needs (PostgREST's inferColsEmbedNeeds), not every column, so a caller who
 * may read some columns gets them back; `*` still needs every column (Postgres says 42501).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../db/test-factories';
import { startHarness, type RestHarness } from './test-support';

/** A fixture table with column grants: `secret` may be written but never read by the API roles. */
const GRANTS_SQL = `
create table public.fx_accounts (
  id int primary key, handle text not null, band_id int references public.fx_bands (id),
  secret text, created_at timestamptz not null default now()
);
revoke all on public.fx_accounts from anon, authenticated;
grant select (id, handle, band_id, created_at) on public.fx_accounts to authenticated;
grant insert (id, handle, band_id, secret) on public.fx_accounts to authenticated;
grant update (id, handle, band_id, secret) on public.fx_accounts to authenticated;
grant delete on public.fx_accounts to authenticated;
insert into public.fx_accounts (id, handle, band_id, secret) values (1, 'first', 1, 's1');
`;

let h: RestHarness;
let alice: TestUser;
let token: string;
beforeAll(async () => {
  h = await startHarness(GRANTS_SQL);
  alice = await createUser(h.db, { name: 'Alice' });
  token = h.userToken(alice.id, { email: alice.email });
});
afterAll(async () => {
  await h?.close();
});

const asUser = (extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${token}`,
  ...extra,
});

describe('profiles: public columns come back, hidden ones are never returned', () => {
  it('update(...).select("id,name") answers the row (PATCH with return=representation)', async () => {
    const { data, error, status } = await h
      .client(token)
      .from('profiles')
      .update({ name: 'Alice Liddell' })
      .eq('id', alice.id)
      .select('id,name');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([{ id: alice.id, name: 'Alice Liddell' }]);
  });

  it('raw PATCH: 200, the selected columns only, PostgREST headers', async () => {
    const res = await h.rest(`/profiles?id=eq.${alice.id}&select=name,followers`, {
      method: 'PATCH',
      headers: asUser({ Prefer: 'return=representation' }),
      body: JSON.stringify({ bio: 'Down the rabbit hole' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-range')).toBe('0-0/*');
    expect(res.headers.get('preference-applied')).toBe('return=representation');
    expect(await res.json()).toEqual([{ name: 'Alice Liddell', followers: 0 }]);
  });

  it('single() and an upsert of the own row return the listed columns', async () => {
    const client = h.client(token);
    const one = await client
      .from('profiles')
      .update({ avatar_url: 'https://example.test/a.png' })
      .eq('id', alice.id)
      .select('avatar_url')
      .single();
    expect(one.error).toBeNull();
    expect(one.data).toEqual({ avatar_url: 'https://example.test/a.png' });
    const upserted = await client
      .from('profiles')
      .upsert({ id: alice.id, name: 'Alice' })
      .select('id,name,subscription_plan');
    expect(upserted.error).toBeNull();
    expect(upserted.status).toBe(200);
    expect(upserted.data).toEqual([{ id: alice.id, name: 'Alice', subscription_plan: 'free' }]);
  });

  it('select("*") after a write, and a plain select("*"), stay 403 42501 (rolled back)', async () => {
    const client = h.client(token);
    const write = await client
      .from('profiles')
      .update({ name: 'Not Saved' })
      .eq('id', alice.id)
      .select('*');
    expect(write.status).toBe(403);
    expect(write.error?.code).toBe('42501');
    expect(write.error?.message).toBe('permission denied for table profiles');
    const read = await client.from('profiles').select('*').eq('id', alice.id);
    expect(read.status).toBe(403);
    expect(read.error?.code).toBe('42501');
    const name = await client.from('profiles').select('name').eq('id', alice.id).single();
    expect(name.data?.name).not.toBe('Not Saved');
  });

  it('a hidden column named in select is refused, and return=minimal needs no select at all', async () => {
    const res = await h.rest(`/profiles?id=eq.${alice.id}&select=id,email`, {
      method: 'PATCH',
      headers: asUser({ Prefer: 'return=representation' }),
      body: JSON.stringify({ name: 'Alice' }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: '42501' });
    const minimal = await h.rest(`/profiles?id=eq.${alice.id}`, {
      method: 'PATCH',
      headers: asUser({ Prefer: 'return=minimal' }),
      body: JSON.stringify({ name: 'Alice' }),
    });
    expect(minimal.status).toBe(204);
  });
});

describe('a table with column grants (fx_accounts: secret is write-only)', () => {
  it('insert(...).select("id,handle") returns them; insert(...).select() (= *) is 403 and inserts nothing', async () => {
    const client = h.client(token);
    const ok = await client
      .from('fx_accounts')
      .insert({ id: 2, handle: 'second', secret: 's2' })
      .select('id,handle');
    expect(ok.error).toBeNull();
    expect(ok.status).toBe(201);
    expect(ok.data).toEqual([{ id: 2, handle: 'second' }]);
    const star = await client
      .from('fx_accounts')
      .insert({ id: 3, handle: 'third', secret: 's3' })
      .select();
    expect(star.status).toBe(403);
    expect(star.error?.code).toBe('42501');
    const rows = await client.from('fx_accounts').select('id').eq('id', 3);
    expect(rows.data).toEqual([]);
  });

  it('returns the join columns an embed needs without listing them (band_id for fx_bands)', async () => {
    const res = await h.rest('/fx_accounts?id=eq.1&select=handle,band:fx_bands(name)', {
      method: 'PATCH',
      headers: asUser({ Prefer: 'return=representation' }),
      body: JSON.stringify({ handle: 'renamed', secret: 'new secret' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ handle: 'renamed', band: { name: 'The Beatles' } }]);
  });

  it('upsert (merge-duplicates) says inserted (201) or updated (200) with a narrow select', async () => {
    // No `secret` here: DO UPDATE SET secret = EXCLUDED.secret reads it, which needs SELECT.
    const client = h.client(token);
    const updated = await client
      .from('fx_accounts')
      .upsert({ id: 2, handle: 'second again', band_id: 2 })
      .select('handle');
    expect(updated.error).toBeNull();
    expect(updated.status).toBe(200);
    expect(updated.data).toEqual([{ handle: 'second again' }]);
    const both = await client
      .from('fx_accounts')
      .upsert([
        { id: 2, handle: 'second again', band_id: null },
        { id: 4, handle: 'fourth', band_id: null },
      ])
      .select('id');
    expect(both.status).toBe(201);
    expect(both.data).toEqual([{ id: 2 }, { id: 4 }]);
    const minimal = await h.rest('/fx_accounts', {
      method: 'POST',
      headers: asUser({ Prefer: 'resolution=merge-duplicates,return=minimal' }),
      body: JSON.stringify({ id: 4, handle: 'fourth', band_id: 3 }),
    });
    expect(minimal.status).toBe(200);
    const put = await h.rest('/fx_accounts?id=eq.5&select=id,handle', {
      method: 'PUT',
      headers: asUser({ Prefer: 'return=representation' }),
      body: JSON.stringify({ id: 5, handle: 'fifth', band_id: null }),
    });
    expect(put.status).toBe(201);
    expect(await put.json()).toEqual([{ id: 5, handle: 'fifth' }]);
    const putAgain = await h.rest('/fx_accounts?id=eq.5&select=handle', {
      method: 'PUT',
      headers: asUser({ Prefer: 'return=representation' }),
      body: JSON.stringify({ id: 5, handle: 'fifth!', band_id: null }),
    });
    expect(putAgain.status).toBe(200);
    expect(await putAgain.json()).toEqual([{ handle: 'fifth!' }]);
  });

  it('delete(...).select("id,handle") returns the deleted rows; .select() is 403 and deletes nothing', async () => {
    const client = h.client(token);
    const refused = await client.from('fx_accounts').delete().eq('id', 4).select();
    expect(refused.status).toBe(403);
    expect((await client.from('fx_accounts').select('id').eq('id', 4)).data).toEqual([{ id: 4 }]);
    const deleted = await client.from('fx_accounts').delete().eq('id', 4).select('id,handle');
    expect(deleted.error).toBeNull();
    expect(deleted.data).toEqual([{ id: 4, handle: 'fourth' }]);
  });

  it('Accept: object with a narrow select, and csv', async () => {
    const obj = await h.rest('/fx_accounts?id=eq.2&select=id,handle', {
      method: 'PATCH',
      headers: asUser({
        Prefer: 'return=representation',
        Accept: 'application/vnd.pgrst.object+json',
      }),
      body: JSON.stringify({ secret: 'rotated' }),
    });
    expect(obj.status).toBe(200);
    expect(await obj.json()).toEqual({ id: 2, handle: 'second again' });
    const csv = await h.rest('/fx_accounts?id=eq.2&select=handle', {
      method: 'PATCH',
      headers: asUser({ Prefer: 'return=representation', Accept: 'text/csv' }),
      body: JSON.stringify({ secret: 'rotated again' }),
    });
    expect(csv.status).toBe(200);
    expect(await csv.text()).toBe('handle\n"second again"');
  });
});
