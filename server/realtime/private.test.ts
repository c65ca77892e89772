/**
 * Private channels (RLS policies on realtime.messages) and the REST broadcast endpoints, driven
 * by @supabase/realtime-js as an app drives hosted Supabase Realtime, on PGlite (and on
 * PostgreSQL under `npm run test:postgres`).
 */
import type { RealtimeChannel, RealtimeClient } from '@supabase/realtime-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../db/test-database';
import { createUser, type TestUser } from '../db/test-factories';
import { Inbox, startRealtimeHarness, subscribed, type RealtimeHarness } from './test-support';

vi.setConfig({ testTimeout: 30_000 });

let h: RealtimeHarness;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  h = await startRealtimeHarness();
  alice = await createUser(h.db, { name: 'Alice' });
  bob = await createUser(h.db, { name: 'Bob' });
  // As a project's migration would write them (Supabase's "Realtime Authorization" guide):
  // everyone signed in reads the room "team"; only Alice writes to it. "inbox:<id>" is its
  // owner's alone.
  await h.db.exec(`
    create policy "read team and own inbox" on realtime.messages for select to authenticated
      using (realtime.topic() = 'team' or realtime.topic() = 'inbox:' || (select auth.uid())::text);
    create policy "alice writes to team" on realtime.messages for insert to authenticated
      with check (realtime.topic() = 'team' and (select auth.uid()) = '${alice.id}');
  `);
}, DATABASE_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, DATABASE_HOOK_TIMEOUT_MS);

interface Message {
  event: string;
  payload: Record<string, unknown>;
}

function room(
  client: RealtimeClient,
  name: string,
  config: { private?: boolean; ack?: boolean; presenceKey?: string } = {},
) {
  const inbox = new Inbox<Message>();
  const channel = client
    .channel(name, {
      config: {
        private: config.private ?? false,
        broadcast: { ack: config.ack ?? false },
        ...(config.presenceKey ? { presence: { key: config.presenceKey, enabled: true } } : {}),
      },
    })
    .on('broadcast', { event: '*' }, (m: Message) => inbox.push(m));
  return { channel, inbox };
}

function joinError(channel: RealtimeChannel): Promise<Error> {
  return new Promise((resolve) => {
    channel.subscribe((status, error) => {
      if (status === 'CHANNEL_ERROR') resolve(error ?? new Error(status));
    });
  });
}

describe('private channels', () => {
  it('joins only with the read policy, relays only with the write policy, apart from the public channel of the same name', async () => {
    const asAlice = h.realtimeClient({ token: h.token(alice.id) });
    const asBob = h.realtimeClient({ token: h.token(bob.id) });
    const asAnon = h.realtimeClient();

    const denied = room(asBob, `inbox:${alice.id}`, { private: true });
    const error = await joinError(denied.channel);
    expect(error.message).toBe(
      `Unauthorized: You do not have permissions to read from this Channel topic: inbox:${alice.id}`,
    );
    await asBob.removeChannel(denied.channel);
    const anonDenied = room(asAnon, 'team', { private: true });
    expect((await joinError(anonDenied.channel)).message).toContain('Unauthorized');
    await asAnon.removeChannel(anonDenied.channel);

    const aliceTeam = room(asAlice, 'team', { private: true, ack: true });
    const bobTeam = room(asBob, 'team', { private: true, ack: true });
    const publicTeam = room(asAnon, 'team');
    await Promise.all([aliceTeam, bobTeam, publicTeam].map((r) => subscribed(r.channel)));

    // Alice may write: Bob (private, read policy) receives; the public "team" does not.
    expect(
      await aliceTeam.channel.send({ type: 'broadcast', event: 'hello', payload: { n: 1 } }),
    ).toBe('ok');
    expect((await bobTeam.inbox.next()).payload).toEqual({ n: 1 });
    // Bob may not write: his message is dropped without a reply (Realtime's BroadcastHandler).
    expect(
      await bobTeam.channel.send(
        { type: 'broadcast', event: 'hello', payload: { n: 2 } },
        { timeout: 1500 },
      ),
    ).toBe('timed out');
    // A public broadcast reaches the public channel only.
    expect(
      await publicTeam.channel.send({ type: 'broadcast', event: 'hi', payload: { n: 3 } }),
    ).toBe('ok');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(aliceTeam.inbox.items).toHaveLength(0);
    expect(bobTeam.inbox.items.map((m) => m.payload)).toEqual([{ n: 1 }]);
    expect(publicTeam.inbox.items).toHaveLength(0); // no self broadcast
    for (const c of [asAlice, asBob, asAnon]) await c.removeAllChannels();
  });

  it('tracks presence only with the presence write policy', async () => {
    const asAlice = h.realtimeClient({ token: h.token(alice.id) });
    const asBob = h.realtimeClient({ token: h.token(bob.id) });
    const aliceTeam = room(asAlice, 'team', { private: true, presenceKey: 'alice' });
    const bobTeam = room(asBob, 'team', { private: true, presenceKey: 'bob' });
    await Promise.all([subscribed(aliceTeam.channel), subscribed(bobTeam.channel)]);
    expect(await bobTeam.channel.track({ online: true })).toBe('error');
    expect(await aliceTeam.channel.track({ online: true })).toBe('ok');
    await vi.waitFor(() => expect(Object.keys(bobTeam.channel.presenceState())).toEqual(['alice']));
    await asAlice.removeAllChannels();
    await asBob.removeAllChannels();
  });
});

describe('REST broadcast', () => {
  it('channel.send() before joining posts to /api/broadcast; httpSend() to /api/broadcast/:topic/events/:event, private ones by the write policy', async () => {
    const listener = h.realtimeClient({ token: h.token(bob.id) });
    const lobby = room(listener, 'lobby');
    const team = room(listener, 'team', { private: true });
    await Promise.all([subscribed(lobby.channel), subscribed(team.channel)]);

    // Not subscribed: realtime-js falls back to the REST endpoint (202 → 'ok').
    const sender = h.realtimeClient({ token: h.token(alice.id) });
    const lobbyOut = sender.channel('lobby');
    expect(await lobbyOut.send({ type: 'broadcast', event: 'news', payload: { a: 1 } })).toBe('ok');
    expect(await lobby.inbox.next()).toMatchObject({ event: 'news', payload: { a: 1 } });

    const teamOut = sender.channel('team', { config: { private: true } });
    await expect(teamOut.httpSend('plan', { b: 2 })).resolves.toEqual({ success: true });
    expect(await team.inbox.next()).toMatchObject({ event: 'plan', payload: { b: 2 } });

    // Bob may read "team" but not write to it.
    const bobSender = h.realtimeClient({ token: h.token(bob.id) });
    const bobOut = bobSender.channel('team', { config: { private: true } });
    await expect(bobOut.httpSend('plan', { c: 3 })).rejects.toThrow('Unauthorized');

    // No valid token: 401.
    const res = await fetch(`${h.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: 'not-a-jwt' },
      body: JSON.stringify({ messages: [{ topic: 'lobby', event: 'x', payload: {} }] }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Unauthorized' });
    // A message without a payload: 422.
    const bad = await fetch(`${h.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: h.keys.anonKey },
      body: JSON.stringify({ messages: [{ topic: 'lobby', event: 'x' }] }),
    });
    expect(bad.status).toBe(422);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lobby.inbox.items).toHaveLength(1);
    expect(team.inbox.items).toHaveLength(1);
    for (const c of [listener, sender, bobSender]) await c.removeAllChannels();
  });
});
