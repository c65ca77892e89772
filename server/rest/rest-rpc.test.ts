import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../db/test-factories';
import { startHarness, type RestHarness } from './test-support';

let h: RestHarness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const json = async (res: Response) => {
  const text = await res.text();
  return text ? (JSON.parse(text) as unknown) : null;
};

describe('/rpc', () => {
  it('calls by POST with named arguments from the body, defaults applied (supabase-js .rpc)', async () => {
    const anon = h.client();
    expect((await anon.rpc('fx_add', { a: 2, b: 40 })).data).toBe(42);
    expect((await anon.rpc('fx_add', { a: 2 })).data).toBe(3);
  });

  it('calls by GET with arguments from the query string, and HEAD', async () => {
    const res = await h.rest('/rpc/fx_add?a=5&b=6');
    expect(res.status).toBe(200);
    expect(await json(res)).toBe(11);
    const get = await h.client().rpc('fx_add', { a: 1 }, { get: true });
    expect(get.data).toBe(2);
    const head = await h.rest('/rpc/fx_add?a=1', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('void functions answer 204', async () => {
    const res = await h.rest('/rpc/fx_noop', { method: 'POST' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const viaClient = await h.client().rpc('fx_noop');
    expect(viaClient.error).toBeNull();
    expect(viaClient.status).toBe(204);
  });

  it('set-returning functions can be filtered, ordered, selected, embedded and counted', async () => {
    const { data, count, error } = await h
      .client()
      .rpc('fx_bands_from', { country: 'UK' }, { count: 'exact' })
      .select('name,fx_albums!band_id(title)')
      .gte('formed', 1980)
      .order('name');
    expect(error).toBeNull();
    expect(count).toBe(1);
    expect(data).toEqual([{ name: 'Radiohead', fx_albums: [{ title: 'OK Computer' }] }]);
    const res = await h.rest(
      '/rpc/fx_song_list?min_seconds=300&select=title&order=seconds.desc&limit=1',
    );
    expect(await json(res)).toEqual([{ title: 'Paranoid Android' }]);
    expect(res.headers.get('content-range')).toBe('0-0/*');
    expect(await json(await h.rest('/rpc/fx_numbers?n=3'))).toEqual([1, 2, 3]);
  });

  it('returns a single composite as an object and json arguments untouched', async () => {
    expect(await json(await h.rest('/rpc/fx_stats'))).toEqual({ total: 6, longest: 387 });
    expect(await json(await h.rest('/rpc/fx_make_pair?n=4'))).toEqual({
      left_value: 4,
      right_value: 'x',
    });
    expect((await h.rest('/fx_pair')).status).toBe(404);
    const echo = await h.client().rpc('fx_echo', { payload: { a: [1, { b: null }], c: 'x' } });
    expect(echo.data).toEqual({ a: [1, { b: null }], c: 'x' });
    const whole = await h.rest('/rpc/fx_whole', {
      method: 'POST',
      body: JSON.stringify({ any: 'thing' }),
    });
    expect(await json(whole)).toEqual({ any: 'thing' });
  });

  it('publishes role, claims, method, path and headers to SQL', async () => {
    const sub = randomUUID();
    const res = await h.rest('/rpc/fx_whoami', {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.userToken(sub)}`, 'x-test': 'hello' },
      body: '{}',
    });
    expect(await json(res)).toEqual({
      role: 'authenticated',
      uid: sub,
      method: 'POST',
      path: '/rpc/fx_whoami',
      ua: 'hello',
    });
  });

  it('errors: unknown function 404 PGRST202, RAISE 400 P0001, PT402, volatile by GET 405, bad method 405', async () => {
    const missing = await h.rest('/rpc/fx_nope', { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ code: 'PGRST202' });
    const wrongArgs = await h.rest('/rpc/fx_add', {
      method: 'POST',
      body: JSON.stringify({ z: 1 }),
    });
    expect(wrongArgs.status).toBe(404);
    const raised = await h.client().rpc('fx_fail');
    expect(raised.status).toBe(400);
    expect(raised.error).toEqual({
      code: 'P0001',
      message: 'I refuse!',
      details: 'Pretty simple',
      hint: 'There is nothing you can do.',
    });
    const payment = await h.rest('/rpc/fx_payment', { method: 'POST' });
    expect(payment.status).toBe(402);
    expect(await json(payment)).toMatchObject({
      code: 'PT402',
      message: 'Payment Required',
      details: 'Quota exceeded',
    });
    const volatileGet = await h.rest(`/rpc/fx_write_note?body=x`, {
      headers: { Authorization: `Bearer ${h.userToken(randomUUID())}` },
    });
    expect(volatileGet.status).toBe(405);
    expect(await json(volatileGet)).toMatchObject({ code: '25006' });
    const patch = await h.rest('/rpc/fx_add', { method: 'PATCH', body: '{}' });
    expect(patch.status).toBe(405);
    expect(await json(patch)).toMatchObject({ code: 'PGRST101' });
  });

  it('runs the real migrations’ increment_track_plays as defined: 401 without a user, 404 PT404 for a missing track', async () => {
    const res = await h.rest('/rpc/increment_track_plays', {
      method: 'POST',
      body: JSON.stringify({ track_id: randomUUID() }),
    });
    expect(res.status).toBe(401);
    const listener = await createUser(h.db);
    const missing = await h.rest('/rpc/increment_track_plays', {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.userToken(listener.id)}` },
      body: JSON.stringify({ track_id: randomUUID() }),
    });
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ code: 'PT404', message: 'Track not found' });
  });
});
