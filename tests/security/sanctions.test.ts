/**
 * Account sanctions (docs/trust-and-safety.md), with the official supabase-js client against
 * the real backend: only an admin sanctions or lifts; a suspended account is refused upload,
 * edit and withdrawal by REST, storage and functions, and is free again once its end date is
 * past (the clock is moved by setting ends_at in the past, never by sleeping); a banned account
 * cannot sign in or refresh, and its still-valid access token reaches nothing.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  clientOptions as options,
  MEMBER_PASSWORD as PASSWORD,
  signedInMember,
  type Member,
} from './support/members';
import { startTarget, type Target } from './support/target';
import { buildWorld, type World } from './support/world';

let t: Target;
let w: World;
let n = 0;

beforeAll(async () => {
  t = await startTarget();
  w = await buildWorld(t.db);
});
/** Realtime clients opened by the tests, disconnected even when a test fails. */
const realtimeClients: SupabaseClient[] = [];
afterAll(async () => {
  await Promise.all(realtimeClients.map((c) => c.realtime.disconnect()));
  await t?.close();
});

const anon = () => createClient(t.url, t.keys.anonKey, options);
/** A client with a ready-made access token (the world's users have no password). */
const asToken = (token: string) =>
  createClient(t.url, t.keys.anonKey, {
    ...options,
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
const admin = () => asToken(t.token(w.admin));

const member = () => signedInMember(t, 'sanction');

/** A ready track of the member's and 20 EUR of earnings (arranged by the server). */
async function trackAndMoney(m: Member, title: string): Promise<string> {
  await t.db.query(`select public.post_ledger_entry($1, 20, 'play', $2, $3)`, [
    m.id,
    w.trackX,
    w.other.id,
  ]);
  const { rows } = await t.db.query<{ id: string }>(
    `insert into public.tracks (title, artist, audio_url, uploaded_by, status)
     values ($2, 'Me', 'tracks/' || $1 || '/' || gen_random_uuid() || '.mp3', $1::uuid, 'ready')
     returning id`,
    [m.id, title],
  );
  return rows[0]!.id;
}

const sanction = (
  by: SupabaseClient,
  user: string,
  kind: string,
  days: number | null,
  why = 'Repeated spam.',
) => by.rpc('admin_sanction_user', { p_user: user, p_kind: kind, p_reason: why, p_days: days });

async function moveClockPast(user: string) {
  await t.db.query(
    `update public.account_sanctions set starts_at = now() - interval '31 days',
            ends_at = now() - interval '1 second' where user_id = $1 and kind = 'suspension'`,
    [user],
  );
}

/** Five euros to PayPal through the request-withdrawal edge function. */
const withdraw = (client: SupabaseClient) =>
  client.functions.invoke('request-withdrawal', {
    body: { amount: 5, method: 'paypal', details: 'me@paypal.test' },
  });

const cover = () =>
  new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], {
    type: 'image/png',
  });

describe('who may sanction', () => {
  it('refuses anon, the target, another user; lets an admin sanction and lift, audited', async () => {
    const target = await member();
    const stranger = await member();
    for (const who of [anon(), target.client, stranger.client]) {
      const x = await sanction(who, target.id, 'suspension', 7);
      expect(x.error, 'a non-admin sanctioned').not.toBeNull();
    }
    const made = await sanction(admin(), target.id, 'suspension', 7);
    expect(made.error).toBeNull();
    const id = (made.data as { id: string }).id;
    for (const who of [anon(), target.client, stranger.client]) {
      const x = await who.rpc('admin_lift_sanction', { p_sanction: id, p_reason: 'Forgiven.' });
      expect(x.error, 'a non-admin lifted').not.toBeNull();
      const direct = await who
        .from('account_sanctions')
        .update({ lifted_at: new Date().toISOString() })
        .eq('id', id)
        .select();
      expect(direct.data ?? []).toEqual([]);
      const forged = await who
        .from('account_sanctions')
        .insert({ user_id: stranger.id, kind: 'ban', reason: 'x' });
      expect(forged.error, 'a non-admin inserted a sanction').not.toBeNull();
    }
    // The user reads their own sanction (to see why); another user does not.
    const own = await target.client.from('account_sanctions').select('id, reason');
    expect(own.data).toEqual([{ id, reason: 'Repeated spam.' }]);
    const theirs = await stranger.client.from('account_sanctions').select('id').eq('id', id);
    expect(theirs.data).toEqual([]);
    const lifted = await admin().rpc('admin_lift_sanction', {
      p_sanction: id,
      p_reason: 'Forgiven.',
    });
    expect(lifted.error).toBeNull();
    const { rows } = await t.db.query<{ action: string; actor_id: string }>(
      `select action, actor_id from public.admin_audit_log where target_id = $1 order by id`,
      [id],
    );
    expect(rows).toEqual([
      { action: 'account.suspension', actor_id: w.admin.id },
      { action: 'account.lift_suspension', actor_id: w.admin.id },
    ]);
  });

  it('validates the duration: 7 to 30 days, only for a suspension', async () => {
    const target = await member();
    for (const [kind, days] of [
      ['suspension', 6],
      ['suspension', 31],
      ['suspension', null],
      ['ban', 7],
      ['nap', null],
    ] as const) {
      const x = await sanction(admin(), target.id, kind, days);
      expect(x.error, `${kind} ${days}`).not.toBeNull();
    }
    expect((await sanction(admin(), target.id, 'suspension', 30)).error).toBeNull();
  });
});

describe('a suspended account', () => {
  it('listens but cannot upload, edit or withdraw, until its end date', async () => {
    const m = await member();
    const track = await m.client.from('tracks').select('id').limit(1);
    expect(track.error).toBeNull();
    const own = await trackAndMoney(m, 'Mine');
    expect((await sanction(admin(), m.id, 'suspension', 7)).error).toBeNull();

    // Listening still works: reads of public tracks.
    const listen = await m.client.from('tracks').select('id').eq('id', w.trackX);
    expect(listen.data).toEqual([{ id: w.trackX }]);
    const until = await anon().rpc('suspended_until', { p_user: m.id });
    expect(new Date(until.data as string).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    const attempts = async () => ({
      insert: await m.client
        .from('tracks')
        .insert({ title: 'New', artist: 'Me', audio_url: `tracks/${m.id}/new.mp3` })
        .select('id'),
      update: await m.client.from('tracks').update({ title: 'Renamed' }).eq('id', own).select('id'),
      storage: await m.client.storage.from('covers').upload(`${m.id}/c-${Date.now()}.png`, cover()),
      withdraw: await withdraw(m.client),
    });
    const refused = await attempts();
    expect(refused.insert.error).toMatchObject({
      code: '42501',
      message: 'Your account is suspended: uploads are paused.',
    });
    expect(refused.update.data).toEqual([]);
    expect(refused.storage.error).not.toBeNull();
    expect(refused.withdraw.error).not.toBeNull();
    const { rows } = await t.db.query(`select 1 from public.withdrawals where user_id = $1`, [
      m.id,
    ]);
    expect(rows).toEqual([]);

    // Its end date is past: the same requests go through.
    await moveClockPast(m.id);
    expect((await anon().rpc('suspended_until', { p_user: m.id })).data).toBeNull();
    const allowed = await attempts();
    // Past every sanction check, into the next rule (the audio file must exist first).
    expect(allowed.insert.error?.message).toBe('Audio file not found. Please upload it again.');
    expect(allowed.update.data).toEqual([{ id: own }]);
    expect(allowed.storage.error).toBeNull();
    expect(allowed.withdraw.error).toBeNull();
  });
});

describe('a banned account', () => {
  it('cannot sign in or refresh, and its access token reaches nothing', async () => {
    const m = await member();
    const own = await trackAndMoney(m, 'Banned song');
    const pending = await withdraw(m.client);
    expect(pending.error).toBeNull();
    const banned = await sanction(admin(), m.id, 'ban', null, 'Fraud.');
    expect(banned.error).toBeNull();

    const again = await anon().auth.signInWithPassword({ email: m.email, password: PASSWORD });
    expect(again.error?.code).toBe('user_banned');
    const refreshed = await anon().auth.refreshSession({ refresh_token: m.refreshToken });
    expect(refreshed.error).not.toBeNull();
    const { rows: sessions } = await t.db.query(`select 1 from auth.sessions where user_id = $1`, [
      m.id,
    ]);
    expect(sessions).toEqual([]);

    const stale = asToken(m.accessToken);
    expect((await stale.from('profiles').select('id').eq('id', m.id)).data).toEqual([]);
    expect((await stale.from('tracks').select('id').eq('id', w.trackX)).data).toEqual([]);
    expect(
      (await stale.from('liked_tracks').insert({ user_id: m.id, track_id: w.trackX })).error,
    ).not.toBeNull();
    expect(
      (await stale.storage.from('avatars').upload(`${m.id}/a.png`, cover())).error,
    ).not.toBeNull();
    const fn = await withdraw(stale);
    expect(fn.error).not.toBeNull();

    // Its tracks are hidden from everyone; its pending withdrawal is held.
    expect((await anon().from('tracks').select('id').eq('id', own)).data).toEqual([]);
    const { rows: held } = await t.db.query<{ held_for_review: string }>(
      `select held_for_review from public.withdrawals where user_id = $1`,
      [m.id],
    );
    expect(held).toEqual([{ held_for_review: 'Account banned.' }]);

    // Lifted: it signs in again and its tracks come back.
    const lifted = await admin().rpc('admin_lift_sanction', {
      p_sanction: (banned.data as { id: string }).id,
      p_reason: 'Appeal upheld.',
    });
    expect(lifted.error).toBeNull();
    expect(
      (await anon().auth.signInWithPassword({ email: m.email, password: PASSWORD })).error,
    ).toBeNull();
    expect((await anon().from('tracks').select('id').eq('id', own)).data).toEqual([{ id: own }]);
  });
});

/** The security definer functions that write for the caller, past RLS (migration 20261129180000). */
async function definerCalls(m: Member, client: SupabaseClient) {
  const { rows: pl } = await t.db.query<{ id: string }>(
    `insert into public.playlists (name, created_by) values ('Mine', $1) returning id`,
    [m.id],
  );
  const { rows: failed } = await t.db.query<{ id: string }>(
    `insert into public.tracks (title, artist, audio_url, uploaded_by, status)
     values ('Broken', 'Me', 'tracks/' || $1 || '/' || gen_random_uuid() || '.mp3', $1::uuid, 'failed')
     returning id`,
    [m.id],
  );
  const session = `s-${Date.now()}-${++n}`;
  return {
    edit: {
      add_track_to_playlist: await client.rpc('add_track_to_playlist', {
        playlist_id: pl[0]!.id,
        track_id: w.trackX,
      }),
      retry_track_processing: await client.rpc('retry_track_processing', {
        track_id: failed[0]!.id,
      }),
    },
    listen: {
      increment_track_plays: await client.rpc('increment_track_plays', {
        track_id: w.trackX,
        session_id: session,
      }),
      record_offline_play: await client.rpc('record_offline_play', {
        track_id: w.trackX,
        played_at: new Date().toISOString(),
        session_id: `offline-${session}`,
      }),
      renew_track_downloads: await client.rpc('renew_track_downloads', {}),
    },
  };
}
const playEvents = async (user: string) =>
  (await t.db.query(`select 1 from public.play_events where listener_id = $1`, [user])).rows.length;

describe('security definer functions', () => {
  it('a suspended account listens but does not edit; a banned one does neither', async () => {
    const m = await member();
    expect((await sanction(admin(), m.id, 'suspension', 7)).error).toBeNull();
    const suspended = await definerCalls(m, m.client);
    for (const [name, r] of Object.entries(suspended.edit)) {
      expect(r.error, name).toMatchObject({
        code: '42501',
        message: 'Your account is suspended: editing is paused.',
      });
    }
    for (const [name, r] of Object.entries(suspended.listen)) expect(r.error, name).toBeNull();
    // The plays were judged (refused for want of served audio, but recorded): past the check.
    expect(await playEvents(m.id)).toBe(2);

    // Its end date is past: the edits go through.
    await moveClockPast(m.id);
    const free = await definerCalls(m, m.client);
    for (const [name, r] of Object.entries({ ...free.edit, ...free.listen })) {
      expect(r.error, name).toBeNull();
    }

    const b = await member();
    expect((await sanction(admin(), b.id, 'ban', null, 'Fraud.')).error).toBeNull();
    const banned = await definerCalls(b, asToken(b.accessToken));
    for (const [name, r] of Object.entries({ ...banned.edit, ...banned.listen })) {
      expect(r.error, name).toMatchObject({ code: '42501', message: 'Your account is banned.' });
    }
    expect(await playEvents(b.id)).toBe(0);
  });
});

/** Joins a channel; resolves to the first answer (SUBSCRIBED, or CHANNEL_ERROR and why). */
function join(client: SupabaseClient, topic: string) {
  const channel = client.channel(topic);
  const answer = new Promise<{ status: string; error?: Error }>((resolve) => {
    channel.subscribe((status, error) => {
      if (status !== 'TIMED_OUT') resolve({ status, error });
    });
  });
  return { channel, answer };
}
/** A client whose realtime joins with this access token (supabase-js's realtime does not use
 *  the global Authorization header: it sends the session's token, or the anon key). */
async function realtimeAs(token: string) {
  const client = anon();
  realtimeClients.push(client);
  await client.realtime.setAuth(token);
  return client;
}

describe('a banned account in realtime', () => {
  it('has its open sockets closed by the ban, and a new join refused', async () => {
    const m = await member();
    const live = await realtimeAs(m.accessToken);
    const open = join(live, `room-${m.id}`);
    expect((await open.answer).status).toBe('SUBSCRIBED');
    // Phoenix's socket calls its close callbacks with the CloseEvent.
    const closes: { code: number; reason: string }[] = [];
    live.realtime.stateChangeCallbacks.close.push([
      'ban',
      (event: CloseEvent) => closes.push({ code: event.code, reason: event.reason }),
    ]);

    expect((await sanction(admin(), m.id, 'ban', null, 'Fraud.')).error).toBeNull();
    // Polled, bounded: the server closes the socket when the ban's NOTIFY arrives.
    await vi.waitFor(
      () => expect(closes).toContainEqual({ code: 4003, reason: 'account banned' }),
      {
        timeout: 20_000,
        interval: 20,
      },
    );
    // realtime-js reconnects and rejoins by itself: refused, so the channel never joins again.
    await vi.waitFor(() => expect(open.channel.state).not.toBe('joined'), {
      timeout: 20_000,
      interval: 20,
    });

    // The still-valid access token cannot join anew.
    const stale = await realtimeAs(m.accessToken);
    const again = await join(stale, `room-${m.id}-again`).answer;
    expect(again.status).toBe('CHANNEL_ERROR');
    expect(again.error?.message).toContain('account banned');
    // Another user's socket is untouched by the ban.
    const other = await member();
    const theirs = await realtimeAs(other.accessToken);
    expect((await join(theirs, `room-${other.id}`).answer).status).toBe('SUBSCRIBED');
  });
});

describe('the ban reaches every table', () => {
  it('every table with row security in public, and storage.objects, refuses banned accounts', async () => {
    // The migration added the restrictive policy to the tables that existed then: a table added
    // later without it would let a banned account's still-valid token read or write it.
    const { rows } = await t.db.query<{ table: string }>(
      `select n.nspname || '.' || c.relname as table
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where ((n.nspname = 'public' and c.relkind in ('r', 'p')) or
               (n.nspname = 'storage' and c.relname = 'objects'))
          and c.relrowsecurity
          and not exists (
            select 1 from pg_policy p
             where p.polrelid = c.oid and not p.polpermissive
               and pg_get_expr(p.polqual, p.polrelid) like '%is_active_account()%')
        order by 1`,
    );
    expect(rows.map((r) => r.table)).toEqual([]);
  });
});
