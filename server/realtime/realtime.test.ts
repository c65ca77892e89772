/**
 * The embedded Realtime driven by @supabase/realtime-js and supabase-js, exactly as an app
 * drives hosted Supabase Realtime, on PGlite (and on PostgreSQL under `npm run test:postgres`).
 */
import type {
  RealtimeChannel,
  RealtimePostgresChangesPayload,
  RealtimeClient,
} from '@supabase/realtime-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { DATABASE_HOOK_TIMEOUT_MS } from '../db/test-database';
import { createTrack, createUser, type TestUser } from '../db/test-factories';
import { Inbox, startRealtimeHarness, subscribed, type RealtimeHarness } from './test-support';

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>;

vi.setConfig({ testTimeout: 20_000 });

let h: RealtimeHarness;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let trackIds: string[];

beforeAll(async () => {
  h = await startRealtimeHarness({
    heartbeatTimeoutMs: 2000,
    maxConnectionsPerUser: 3,
    maxChannelsPerConnection: 4,
    maxBufferedBytes: 64 * 1024,
  });
  alice = await createUser(h.db, { name: 'Alice' });
  bob = await createUser(h.db, { name: 'Bob' });
  carol = await createUser(h.db, { name: 'Carol' });
  const artist = await createUser(h.db, { name: 'Artist' });
  trackIds = [];
  for (let i = 0; i < 4; i++) trackIds.push((await createTrack(h.db, artist)).id);
  // Carol follows Alice: she may read Alice's listening history (friends activity). Bob does not.
  await h.db.query(`insert into public.followers (follower_id, following_id) values ($1, $2)`, [
    carol.id,
    alice.id,
  ]);
}, DATABASE_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, DATABASE_HOOK_TIMEOUT_MS);

function listen(
  client: RealtimeClient | { channel: RealtimeClient['channel'] },
  name: string,
  filter: { event: '*' | 'INSERT' | 'UPDATE' | 'DELETE'; table: string; filter?: string },
): { channel: RealtimeChannel; inbox: Inbox<Change> } {
  const inbox = new Inbox<Change>();
  const channel = client
    .channel(name)
    .on('postgres_changes', { schema: 'public', ...filter }, (payload: Change) =>
      inbox.push(payload),
    );
  return { channel, inbox };
}

/** Everything the server received so far has been delivered (and had time to cross the socket). */
async function settled(): Promise<void> {
  await h.realtime.changes.drain();
  await new Promise((resolve) => setTimeout(resolve, 150));
}

describe('postgres_changes through supabase-js', () => {
  it('delivers inserts and deletes of the own likes, filtered, with the row as REST shows it', async () => {
    const db = h.supabase(h.token(alice.id));
    // The token before the join (else the join goes out with the API key's role, anon).
    await db.realtime.setAuth();
    const { channel, inbox } = listen(db, 'likes-alice', {
      event: '*',
      table: 'liked_tracks',
      filter: `user_id=eq.${alice.id}`,
    });
    await subscribed(channel);
    const trackId = trackIds[0] as string;
    const inserted = await db
      .from('liked_tracks')
      .insert({ user_id: alice.id, track_id: trackId })
      .select()
      .single();
    expect(inserted.error).toBeNull();
    const insert = await inbox.next((c) => c.eventType === 'INSERT');
    expect(insert.new).toEqual(inserted.data);
    expect(insert.table).toBe('liked_tracks');
    expect(insert.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const deleted = await db.from('liked_tracks').delete().eq('track_id', trackId);
    expect(deleted.error).toBeNull();
    const del = await inbox.next((c) => c.eventType === 'DELETE');
    // A delete carries the primary key only (RLS cannot be checked on a deleted row).
    expect(del.old).toEqual({ id: (inserted.data as { id: string }).id });
    await db.removeChannel(channel);
  });

  it('never delivers a row the recipient may not select, and decides at delivery time', async () => {
    const bobClient = h.realtimeClient({ token: h.token(bob.id) });
    const carolClient = h.realtimeClient({ token: h.token(carol.id) });
    const bobLikes = listen(bobClient, 'all-likes', { event: 'INSERT', table: 'liked_tracks' });
    const bobHistory = listen(bobClient, 'history', {
      event: 'INSERT',
      table: 'listening_history',
    });
    const carolHistory = listen(carolClient, 'history', {
      event: 'INSERT',
      table: 'listening_history',
    });
    await Promise.all([bobLikes, bobHistory, carolHistory].map((l) => subscribed(l.channel)));

    // Alice's like is hers alone; her listen is readable by her followers (Carol), not by Bob.
    await h.db.query(`insert into public.liked_tracks (user_id, track_id) values ($1, $2)`, [
      alice.id,
      trackIds[1],
    ]);
    const { rows } = await h.db.query<{ id: string }>(
      `insert into public.listening_history (user_id, track_id) values ($1, $2) returning id`,
      [alice.id, trackIds[1]],
    );
    const seen = await carolHistory.inbox.next();
    expect(seen.new).toMatchObject({ id: rows[0]?.id, user_id: alice.id, track_id: trackIds[1] });
    // Bob's own like arrives after Alice's: proof that the earlier changes were processed.
    await h.db.query(`insert into public.liked_tracks (user_id, track_id) values ($1, $2)`, [
      bob.id,
      trackIds[1],
    ]);
    const own = await bobLikes.inbox.next();
    expect(own.new).toMatchObject({ user_id: bob.id });
    await settled();
    expect(bobLikes.inbox.items).toHaveLength(1);
    expect(bobHistory.inbox.items).toHaveLength(0);

    // Once Bob follows Alice, her next listen reaches him too: RLS is asked per change.
    await h.db.query(`insert into public.followers (follower_id, following_id) values ($1, $2)`, [
      bob.id,
      alice.id,
    ]);
    await h.db.query(
      `insert into public.listening_history (user_id, track_id) values ($1, $2) returning id`,
      [alice.id, trackIds[2]],
    );
    const later = await bobHistory.inbox.next();
    expect(later.new).toMatchObject({ user_id: alice.id, track_id: trackIds[2] });
    await h.db.query(`delete from public.followers where follower_id = $1`, [bob.id]);
    await bobClient.removeAllChannels();
    await carolClient.removeAllChannels();
  });

  it('sends only the columns the role may select (profiles: no e-mail, no balance)', async () => {
    const client = h.realtimeClient({ token: h.token(bob.id) });
    const profiles = listen(client, 'profiles', {
      event: 'UPDATE',
      table: 'profiles',
      filter: `id=eq.${alice.id}`,
    });
    await subscribed(profiles.channel);
    await h.db.query(`update public.profiles set bio = 'Hello' where id = $1`, [alice.id]);
    const update = await profiles.inbox.next();
    expect(update.new).toMatchObject({ id: alice.id, bio: 'Hello', name: 'Alice' });
    expect(update.new).not.toHaveProperty('email');
    expect(update.new).not.toHaveProperty('balance');
    expect(update.old).toEqual({ id: alice.id });
    await client.removeAllChannels();
  });

  it('applies filters: eq, in and neq on updates', async () => {
    const client = h.realtimeClient({ token: h.token(alice.id) });
    const mine = listen(client, 'mine', {
      event: 'UPDATE',
      table: 'tracks',
      filter: `id=in.(${trackIds[0]},${trackIds[1]})`,
    });
    const others = listen(client, 'others', {
      event: 'UPDATE',
      table: 'tracks',
      filter: `id=neq.${trackIds[0]}`,
    });
    await Promise.all([subscribed(mine.channel), subscribed(others.channel)]);
    await h.db.query(`update public.tracks set title = 'Renamed' where id = $1`, [trackIds[0]]);
    await h.db.query(`update public.tracks set title = 'Other' where id = $1`, [trackIds[3]]);
    await mine.inbox.next((c) => (c.new as { id?: string }).id === trackIds[0]);
    await others.inbox.next((c) => (c.new as { id?: string }).id === trackIds[3]);
    await settled();
    expect(mine.inbox.items.map((c) => (c.new as { title: string }).title)).toEqual(['Renamed']);
    expect(others.inbox.items.map((c) => (c.new as { title: string }).title)).toEqual(['Other']);
    await client.removeAllChannels();
  });

  it('reports an unknown table or a bad filter as a postgres_changes system error', async () => {
    const client = h.realtimeClient({ token: h.token(alice.id) });
    const system = new Inbox<{ extension: string; status: string; message: string }>();
    const channel = client
      .channel('broken')
      .on('postgres_changes', { event: '*', schema: 'public', table: 'no_such_table' }, () => {})
      .on('system', {}, system.push);
    await subscribed(channel);
    const error = await system.next();
    expect(error).toMatchObject({ extension: 'postgres_changes', status: 'error' });
    expect(error.message).toContain('Unable to subscribe to changes');
    await client.removeAllChannels();
  });
});

describe('tokens', () => {
  it('stops the stream when the token expires, with a system message', async () => {
    const client = h.realtimeClient({ token: h.token(alice.id, 2) });
    const system = new Inbox<{ status: string; message: string }>();
    const statuses = new Inbox<string>();
    const channel = client
      .channel('expiring')
      .on('postgres_changes', { event: '*', schema: 'public', table: 'tracks' }, () => {})
      .on('system', {}, system.push);
    channel.subscribe((status) => statuses.push(status));
    await statuses.next((s) => s === 'SUBSCRIBED');
    const closed = await system.next((m) => m.status === 'error', 8000);
    expect(closed.message).toMatch(/^Token has expired \d+ seconds ago$/);
    await statuses.next((s) => s === 'CLOSED');
    await client.disconnect();
  });

  it('continues the stream after an access_token refresh', async () => {
    const client = h.realtimeClient({ token: h.token(alice.id, 2) });
    const { channel, inbox } = listen(client, 'refreshed', {
      event: 'UPDATE',
      table: 'tracks',
      filter: `id=eq.${trackIds[2]}`,
    });
    await subscribed(channel);
    await client.setAuth(h.token(alice.id, 3600));
    await new Promise((resolve) => setTimeout(resolve, 3500)); // past the first token's expiry
    await h.db.query(`update public.tracks set title = 'Still here' where id = $1`, [trackIds[2]]);
    const update = await inbox.next();
    expect(update.new).toMatchObject({ title: 'Still here' });
    expect(channel.state).toBe('joined');
    await client.removeAllChannels();
  });

  it('refuses a join with an invalid token with Realtime’s reason', async () => {
    const client = h.realtimeClient({ token: `${h.token(alice.id)}x` });
    const channel = client.channel('bad-token');
    const error = await subscribed(channel).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toContain('JwtSignatureError');
    await client.disconnect();
  });

  it('refuses a websocket without an API key (HTTP 401)', async () => {
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${h.url.replace('http', 'ws')}/realtime/v1/websocket?vsn=2.0.0`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(status).toBe(401);
  });
});

describe('connection bounds', () => {
  it('closes a socket that stops sending heartbeats; realtime-js heartbeats keep one open', async () => {
    const silent = new WebSocket(
      `${h.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${h.keys.anonKey}&vsn=2.0.0`,
    );
    const closedAt = new Promise<number>((resolve) =>
      silent.on('close', () => resolve(Date.now())),
    );
    await new Promise((resolve) => silent.on('open', resolve));
    const openedAt = Date.now();
    const client = h.realtimeClient({ token: h.token(alice.id) });
    const { channel } = listen(client, 'alive', { event: '*', table: 'tracks' });
    await subscribed(channel);
    const closed = await closedAt;
    expect(closed - openedAt).toBeGreaterThanOrEqual(1500);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(client.isConnected()).toBe(true);
    expect(channel.state).toBe('joined');
    await client.removeAllChannels();
  });

  it('limits the sockets of one user and the channels of one socket', async () => {
    const clients = [0, 1, 2, 3].map(() => h.realtimeClient({ token: h.token(carol.id) }));
    for (const [i, c] of clients.slice(0, 3).entries()) await subscribed(c.channel(`limit-${i}`));
    const refused = await subscribed((clients[3] as RealtimeClient).channel('limit-3')).then(
      () => null,
      (e: Error) => e,
    );
    expect(refused?.message).toContain('ConnectionRateLimitReached');
    await Promise.all(clients.map((c) => c.disconnect()));

    const one = h.realtimeClient({ token: h.token(bob.id) });
    for (let i = 0; i < 4; i++) await subscribed(one.channel(`many-${i}`));
    const fifth = await subscribed(one.channel('many-4')).then(
      () => null,
      (e: Error) => e,
    );
    expect(fifth?.message).toContain('ChannelRateLimitReached');
    await one.disconnect();
  });

  it('refuses a socket over the server-wide connection limit (HTTP 429)', async () => {
    const { limits } = h.realtime.server;
    const before = limits.maxConnections;
    limits.maxConnections = h.realtime.server.stats().connections + 1;
    const url = `${h.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${h.keys.anonKey}&vsn=2.0.0`;
    const open = () =>
      new Promise<{ status: number; ws: WebSocket }>((resolve) => {
        const ws = new WebSocket(url);
        ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0, ws }));
        ws.on('open', () => resolve({ status: 101, ws }));
      });
    const first = await open();
    const second = await open();
    limits.maxConnections = before;
    first.ws.terminate();
    expect([first.status, second.status]).toEqual([101, 429]);
  });

  it('drops a client that does not read, instead of queueing without bound', async () => {
    const before = h.realtime.server.stats().droppedSlow;
    const reader = new WebSocket(
      `${h.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${h.keys.anonKey}&vsn=1.0.0`,
    );
    await new Promise((resolve) => reader.on('open', resolve));
    reader.send(
      JSON.stringify({
        topic: 'realtime:flood',
        event: 'phx_join',
        payload: {},
        ref: '1',
        join_ref: '1',
      }),
    );
    await new Promise((resolve) => reader.once('message', resolve));
    // Stop reading: the server's buffer for this socket fills up.
    (reader as unknown as { _socket: { pause(): void } })._socket.pause();
    const sender = h.realtimeClient({ token: h.token(alice.id) });
    const channel = sender.channel('flood');
    await subscribed(channel);
    // The kernel takes the first tens of MB (Linux autotunes a loopback receive buffer up to
    // net.ipv4.tcp_rmem's max, 32 MB here, plus 4 MB of send buffer): 20 MB was not always
    // enough on a loaded machine. Up to 200 MB, stopping as soon as the server drops the reader.
    const big = 'x'.repeat(200_000);
    for (let i = 0; i < 1000 && h.realtime.server.stats().droppedSlow === before; i++) {
      await channel.send({ type: 'broadcast', event: 'big', payload: { big } });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(h.realtime.server.stats().droppedSlow).toBeGreaterThan(before);
    reader.terminate();
    await sender.removeAllChannels();
  }, 120_000);
});

describe('broadcast and presence', () => {
  it('relays broadcasts between protocol versions and tracks presence', async () => {
    const a = h.realtimeClient({ token: h.token(alice.id) }); // vsn 2.0.0 (binary broadcast)
    const b = h.realtimeClient({ token: h.token(bob.id), vsn: '1.0.0' });
    const fromA = new Inbox<{ event: string; payload: unknown }>();
    const fromB = new Inbox<{ event: string; payload: unknown }>();
    const joins = new Inbox<string>();
    const roomA = a
      .channel('room', { config: { presence: { key: 'alice' } } })
      .on('broadcast', { event: 'hello' }, fromB.push)
      .on('presence', { event: 'join' }, ({ key }: { key: string }) => joins.push(key));
    const roomB = b
      .channel('room', { config: { broadcast: { ack: true } } })
      .on('broadcast', { event: 'hello' }, fromA.push);
    await subscribed(roomA);
    await subscribed(roomB);
    await roomA.send({ type: 'broadcast', event: 'hello', payload: { from: 'alice' } });
    expect((await fromA.next()).payload).toEqual({ from: 'alice' });
    expect(await roomB.send({ type: 'broadcast', event: 'hello', payload: { from: 'bob' } })).toBe(
      'ok',
    );
    expect((await fromB.next()).payload).toEqual({ from: 'bob' });

    expect(await roomA.track({ online_at: 1 })).toBe('ok');
    expect(await joins.next()).toBe('alice');
    expect(roomA.presenceState()).toMatchObject({ alice: [{ online_at: 1 }] });
    await a.removeAllChannels();
    await b.removeAllChannels();
  });
});
