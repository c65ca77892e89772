/**
 * How a batch of changes is checked for its recipients (capture.sql's visible_rows: every
 * recipient's RLS check in one statement), driven by @supabase/realtime-js on a fixture table, on
 * PGlite (and on PostgreSQL under `npm run test:postgres`).
 */
import type { RealtimePostgresChangesPayload } from '@supabase/realtime-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../db/test-database';
import { createUser, type TestUser } from '../db/test-factories';
import { Inbox, startRealtimeHarness, subscribed, type RealtimeHarness } from './test-support';

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>;

vi.setConfig({ testTimeout: 20_000 });

let h: RealtimeHarness;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  h = await startRealtimeHarness();
  alice = await createUser(h.db, { name: 'Alice' });
  bob = await createUser(h.db, { name: 'Bob' });
  // A published table whose select policy lets the owner read their rows, anon read the rows
  // marked public, and raises an error for Bob (a broken policy must only cost its own reader).
  await h.db.exec(`
    create table public.realtime_fixture (id integer primary key, owner uuid, note text);
    alter table public.realtime_fixture enable row level security;
    create function public.realtime_fixture_check(row_owner uuid) returns boolean
      language plpgsql stable as $$
      begin
        if auth.uid() = '${bob.id}' then raise exception 'this policy breaks for Bob'; end if;
        return row_owner = auth.uid();
      end $$;
    create policy "owner" on public.realtime_fixture for select to authenticated
      using (public.realtime_fixture_check(owner));
    create policy "public rows" on public.realtime_fixture for select to anon
      using (note like 'public%');
    grant select on public.realtime_fixture to anon, authenticated;
    alter publication supabase_realtime add table public.realtime_fixture;
    select embedded_realtime.sync_triggers();
  `);
}, DATABASE_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, DATABASE_HOOK_TIMEOUT_MS);

function listen(token: string | undefined, name: string, filter?: string) {
  const inbox = new Inbox<Change>();
  const client = h.realtimeClient(token ? { token } : {});
  const channel = client.channel(name).on(
    'postgres_changes',
    {
      event: '*',
      schema: 'public',
      table: 'realtime_fixture',
      ...(filter ? { filter } : {}),
    },
    inbox.push,
  );
  return { client, channel, inbox };
}

describe('one check for every recipient of a batch', () => {
  it('delivers to anon and signed-in readers together, and a policy raising for one reader costs only that reader', async () => {
    const errors: unknown[] = [];
    const onError = h.realtime.changes.onError;
    h.realtime.changes.onError = (error) => errors.push(error);
    const asAlice = listen(h.token(alice.id), 'alice');
    const asBob = listen(h.token(bob.id), 'bob');
    const asAnon = listen(undefined, 'anon');
    await Promise.all([asAlice, asBob, asAnon].map((l) => subscribed(l.channel)));

    // One statement, one batch: three readers, two roles, one of them failing.
    await h.db.query(
      `insert into public.realtime_fixture (id, owner, note) values (1, $1, 'public note'), (2, $1, 'private')`,
      [alice.id],
    );
    await asAlice.inbox.next((c) => (c.new as { id?: number }).id === 2);
    await asAnon.inbox.next((c) => (c.new as { id?: number }).id === 1);
    await h.realtime.changes.drain();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(asAlice.inbox.items.map((c) => (c.new as { id: number }).id).sort()).toEqual([1, 2]);
    expect(asAnon.inbox.items.map((c) => (c.new as { id: number }).id)).toEqual([1]);
    expect(asBob.inbox.items).toHaveLength(0);
    expect(String(errors[0])).toContain('this policy breaks for Bob');
    h.realtime.changes.onError = onError;
    for (const l of [asAlice, asBob, asAnon]) await l.client.removeAllChannels();
  });

  it('delivers a row too large for a notification (read back for the filters) in full', async () => {
    const asAlice = listen(h.token(alice.id), 'large', `owner=eq.${alice.id}`);
    await subscribed(asAlice.channel);
    const note = 'x'.repeat(9000); // NOTIFY payloads stop at 8000 bytes
    await h.db.query(`insert into public.realtime_fixture (id, owner, note) values (3, $1, $2)`, [
      alice.id,
      note,
    ]);
    const change = await asAlice.inbox.next();
    expect(change.new).toEqual({ id: 3, owner: alice.id, note });
    await asAlice.client.removeAllChannels();
  });
});
