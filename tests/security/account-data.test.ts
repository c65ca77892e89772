/**
 * Your data and leaving (issue 32, docs/privacy-rights.md), with supabase-js against the real
 * backend and its account job runner:
 * - only the owner requests their export, once a day (Postgres's unique key, not the page);
 * - only the server schedules a deletion, after the password (delete-account): not another user,
 *   not a direct RPC; a balance above the minimum must be withdrawn first;
 * - once the grace period is over (moved through the database, the documented test clock) the
 *   job deletes the account: its access token, refresh token, signed URLs and realtime joins are
 *   refused, and no row of public, auth or storage names the user or their email, except the
 *   anonymised earnings ledger and withdrawals (which no longer name them either).
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTarget, type Target } from './support/target';
import { buildWorld, type World } from './support/world';
import { send } from './support/http';

let t: Target;
let w: World;
let n = 0;
const PASSWORD = 'correct horse battery staple';
const realtimeClients: SupabaseClient[] = [];

beforeAll(async () => {
  t = await startTarget();
  w = await buildWorld(t.db);
});
afterAll(async () => {
  await Promise.all(realtimeClients.map((c) => c.realtime.disconnect()));
  await t?.close();
});

const options = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as never },
};
const anon = () => createClient(t.url, t.keys.anonKey, options);

interface Member {
  id: string;
  email: string;
  client: SupabaseClient;
  accessToken: string;
  refreshToken: string;
}
async function member(): Promise<Member> {
  const email = `leaver-${++n}-${Date.now()}@security.test`;
  const service = createClient(t.url, t.keys.serviceRoleKey, options);
  const made = await service.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  expect(made.error).toBeNull();
  const client = anon();
  const signed = await client.auth.signInWithPassword({ email, password: PASSWORD });
  expect(signed.error).toBeNull();
  const session = signed.data.session!;
  return {
    id: signed.data.user!.id,
    email,
    client,
    accessToken: session.access_token,
    refreshToken: session.refresh_token,
  };
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The e-mails sent to `email` so far (the outbox drained first), oldest first. */
async function mailsTo(email: string) {
  await t.backend.mailOutbox!.drain();
  return t.backend.mailer
    .list()
    .filter((x) => x.to === email)
    .reverse();
}

describe('data export', () => {
  it('is requested by the owner only, once a day, and read by the owner only', async () => {
    const m = await member();
    const other = await member();
    const first = await m.client.rpc('request_data_export');
    expect(first.error).toBeNull();
    const again = await m.client.rpc('request_data_export');
    expect(again.error?.message).toBe('You can request one export per day. Try again tomorrow.');
    // Even straight into the table, as the service role: the unique key holds.
    const forced = await t.db
      .query('insert into public.data_exports (user_id) values ($1)', [m.id])
      .then(
        () => 'inserted',
        (e: Error) => e.message,
      );
    expect(forced).toContain('data_exports_one_per_day');
    // The API has no write on the table; a stranger sees nothing of it; anon cannot ask.
    const write = await m.client.from('data_exports').insert({ user_id: m.id });
    expect(write.error).not.toBeNull();
    const theirs = await other.client.from('data_exports').select('id').eq('user_id', m.id);
    expect(theirs.data).toEqual([]);
    const signedOut = await anon().rpc('request_data_export');
    expect(signedOut.error).not.toBeNull();
    const own = await m.client.from('data_exports').select('state');
    expect(own.data).toHaveLength(1);
  });
});

describe('account deletion', () => {
  it('is scheduled only through delete-account with the right password', async () => {
    const m = await member();
    const other = await member();
    // Not as a direct RPC: schedule_account_deletion is the server's.
    const rpc = await m.client.rpc('schedule_account_deletion', { p_user: m.id });
    expect(rpc.error).not.toBeNull();
    const forOther = await other.client.rpc('schedule_account_deletion', { p_user: m.id });
    expect(forOther.error).not.toBeNull();
    const wrong = await m.client.functions.invoke('delete-account', { body: { password: 'nope' } });
    expect(wrong.error).not.toBeNull();
    const none = await anon().functions.invoke('delete-account', { body: { password: PASSWORD } });
    expect(none.error).not.toBeNull();
    const { rows } = await t.db.query('select 1 from public.account_deletions where user_id = $1', [
      m.id,
    ]);
    expect(rows).toEqual([]);
    // Another user cannot cancel it either: cancel acts on the caller's own row only.
    const ok = await m.client.functions.invoke('delete-account', { body: { password: PASSWORD } });
    expect(ok.error).toBeNull();
    expect(await other.client.rpc('cancel_account_deletion')).toMatchObject({
      error: { message: 'No account deletion is scheduled.' },
    });
    const scheduled = await t.db.query<{ days: number }>(
      `select round(extract(epoch from run_after - now()) / 86400)::int as days
         from public.account_deletions where user_id = $1`,
      [m.id],
    );
    expect(scheduled.rows[0]?.days).toBe(14);
    expect((await m.client.rpc('cancel_account_deletion')).error).toBeNull();
    // Both mailed through the outbox: the date and how to cancel, then that it is cancelled.
    const sent = await mailsTo(m.email);
    expect(sent.map((x) => x.subject)).toEqual([
      expect.stringMatching(
        /^Your Soundloft account will be deleted on \d{1,2} \w+ \d{4}, \d\d:\d\d UTC$/,
      ),
      'Your Soundloft account will not be deleted',
    ]);
    expect(sent[0]!.text).toContain('"Keep my account"');
    expect(sent[0]!.text).toContain(`${t.url}/login`);
    expect(other.email && (await mailsTo(other.email))).toEqual([]);
  });

  it('asks an artist with a balance above the minimum to withdraw first', async () => {
    const m = await member();
    await t.db.query(`select public.post_ledger_entry($1, 12.5, 'play')`, [m.id]);
    const r = await m.client.functions.invoke('delete-account', { body: { password: PASSWORD } });
    const body = (await (r.error as { context: Response }).context.json()) as { error: string };
    expect(body.error).toBe('Withdraw your balance of 12.50 EUR before you delete your account.');
  });

  it('after the grace period: nothing of the user is left but the anonymised ledger', async () => {
    const m = await member();
    // A life on the service: an upload with its files, lyrics, likes, a playlist, a follow,
    // history, 3 EUR of earnings (under the minimum: forfeited), an avatar, and a track of theirs
    // in someone else's playlist.
    await t.db.query(`select public.post_ledger_entry($1, 3, 'play', $2, $3)`, [
      m.id,
      w.trackX,
      w.other.id,
    ]);
    const audio = `${m.id}/song.mp3`;
    const up = await m.client.storage
      .from('avatars')
      .upload(`${m.id}/me.png`, PNG, { contentType: 'image/png' });
    expect(up.error).toBeNull();
    const { rows: tr } = await t.db.query<{ id: string }>(
      `insert into public.tracks (title, artist, audio_url, uploaded_by, status)
       values ('Gone Song', 'Me', 'tracks/' || $2, $1, 'ready') returning id`,
      [m.id, audio],
    );
    const trackId = tr[0]!.id;
    for (const [bucket, name] of [
      ['tracks', audio],
      ['renditions', `${trackId}/standard.mp3`],
      ['stems', `${trackId}/vocals.mp3`],
    ] as const) {
      await t.db.query(
        `insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
         values ($1, $2, $3::text::uuid, $3::text, '{"size": 3, "mimetype": "audio/mpeg"}')`,
        [bucket, name, m.id],
      );
      await t.backend.store.put(bucket, name, new Uint8Array([1, 2, 3]));
    }
    await t.db.query(
      `insert into public.track_lyrics (track_id, lyrics) values ($1, '[{"text": "la"}]')
       on conflict (track_id) do update set lyrics = excluded.lyrics`,
      [trackId],
    );
    expect(
      (await m.client.from('liked_tracks').insert({ user_id: m.id, track_id: w.trackX })).error,
    ).toBeNull();
    expect(
      (await m.client.from('followers').insert({ follower_id: m.id, following_id: w.other.id }))
        .error,
    ).toBeNull();
    expect(
      (await m.client.from('listening_history').insert({ user_id: m.id, track_id: w.trackX }))
        .error,
    ).toBeNull();
    expect(
      (await m.client.from('playlists').insert({ name: 'Mine', created_by: m.id })).error,
    ).toBeNull();
    await t.db.query(
      `insert into public.playlists (name, created_by, track_ids) values ('Theirs', $1, array[$2::uuid])`,
      [w.other.id, trackId],
    );
    // Rows that outlive the account: an admin's warning and deletion of another of their tracks
    // (the audit log keeps the sanction and the track row, with their id and artist name), and
    // an audit row of theirs as the actor (had they been an admin).
    const adminClient = createClient(t.url, t.keys.anonKey, {
      ...options,
      global: { headers: { Authorization: `Bearer ${t.token(w.admin)}` } },
    });
    expect(
      (
        await adminClient.rpc('admin_sanction_user', {
          p_user: m.id,
          p_kind: 'warning',
          p_reason: 'Spam in titles.',
          p_days: null,
        })
      ).error,
    ).toBeNull();
    const { rows: second } = await t.db.query<{ id: string }>(
      `insert into public.tracks (title, artist, audio_url, uploaded_by, status)
       values ('Taken Song', $2, 'tracks/' || $1 || '/taken.mp3', $1::uuid, 'ready') returning id`,
      [m.id, m.email],
    );
    expect((await adminClient.from('tracks').delete().eq('id', second[0]!.id)).error).toBeNull();
    await t.db.query(
      `insert into public.admin_audit_log (actor_id, action, target_table, target_id, before, after)
       values ($1, 'track.approve', 'tracks', $2, '{"verified": false}', '{"verified": true}')`,
      [m.id, w.trackX],
    );
    const { rows: audited } = await t.db.query<{ id: string }>(
      `select id::text from public.admin_audit_log
        where actor_id = $1 or target_id = $2 or before::text like '%' || $1 || '%'
           or after::text like '%' || $1 || '%'`,
      [m.id, second[0]!.id],
    );
    expect(audited.length).toBeGreaterThanOrEqual(3);
    const signed = await m.client.storage.from('avatars').createSignedUrl(`${m.id}/me.png`, 3600);
    expect(signed.error).toBeNull();
    // An export, so that its archive exists to be deleted too.
    expect((await m.client.rpc('request_data_export')).error).toBeNull();
    t.backend.account.kick();
    await vi.waitFor(
      async () => {
        const { rows } = await t.db.query<{ state: string }>(
          'select state from public.data_exports where user_id = $1',
          [m.id],
        );
        expect(rows[0]?.state).toBe('ready');
      },
      { timeout: 60_000, interval: 200 },
    );
    // A paid plan through the payment sandbox (the Stripe stand-in), mirrored by its webhook.
    const checkout = await m.client.functions.invoke<{ id: string }>('create-checkout-session', {
      body: { planId: 'basic', userId: m.id, email: m.email, promoCode: null },
    });
    expect(checkout.error).toBeNull();
    t.backend.stripeSandbox!.sandbox.completeCheckout(checkout.data!.id, {
      number: '4242424242424242',
    });
    let subscriptionId = '';
    await vi.waitFor(
      async () => {
        const { rows } = await t.db.query<{ id: string }>(
          `select id from public.subscriptions where user_id = $1 and status = 'active'`,
          [m.id],
        );
        expect(rows).toHaveLength(1);
        subscriptionId = rows[0]!.id;
      },
      { timeout: 30_000, interval: 100 },
    );
    // A realtime socket open before the deletion.
    const live = anon();
    realtimeClients.push(live);
    await live.realtime.setAuth(m.accessToken);
    const closes: number[] = [];
    const channel = live.channel(`room-${m.id}`);
    const joined = new Promise<string>((resolve) =>
      channel.subscribe((status) => {
        if (status !== 'TIMED_OUT') resolve(status);
      }),
    );
    expect(await joined).toBe('SUBSCRIBED');
    live.realtime.stateChangeCallbacks.close.push([
      'deleted',
      (e: CloseEvent) => closes.push(e.code),
    ]);

    expect(
      (await m.client.functions.invoke('delete-account', { body: { password: PASSWORD } })).error,
    ).toBeNull();
    // The test clock: the grace period ends now.
    await t.db.query(
      `update public.account_deletions set run_after = now() - interval '1 second' where user_id = $1`,
      [m.id],
    );
    t.backend.account.kick();
    await vi.waitFor(
      async () => {
        const { rows } = await t.db.query('select 1 from auth.users where id = $1', [m.id]);
        expect(rows).toEqual([]);
      },
      { timeout: 60_000, interval: 200 },
    );

    // Before anyone tries the address again (a refused sign-in keeps a rate-limit bucket
    // keyed by what was typed, for minutes). Every column of every table in public, auth and storage, as text: no id, no email.
    const { rows: tables } = await t.db.query<{ schema: string; name: string }>(
      `select n.nspname as schema, c.relname as name from pg_class c
         join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'auth', 'storage') and c.relkind in ('r', 'p')`,
    );
    const found: string[] = [];
    for (const table of tables) {
      const { rows } = await t.db.query<{ row: string }>(
        `select x::text as row from ${table.schema}.${table.name} x
          where x::text ilike '%' || $1 || '%' or x::text ilike '%' || $2 || '%'`,
        [m.id, m.email],
      );
      // Public tombstones of the sync protocol name a deleted row's key and nothing else.
      const left = rows.filter(
        (r) => !(table.name === 'sync_deletions' && !r.row.includes(m.email)),
      );
      for (const r of left) found.push(`${table.schema}.${table.name}: ${r.row.slice(0, 200)}`);
    }
    expect(found).toEqual([]);
    // The subscription was cancelled at Stripe (at once, not at the period's end).
    expect(t.backend.stripeSandbox!.sandbox.get('subscriptions', subscriptionId)?.status).toBe(
      'canceled',
    );
    // Sign-in refused; the access token finds nothing and writes nothing; the refresh token is dead.
    const signIn = await anon().auth.signInWithPassword({ email: m.email, password: PASSWORD });
    expect(signIn.error).not.toBeNull();
    const asGone = createClient(t.url, t.keys.anonKey, {
      ...options,
      global: { headers: { Authorization: `Bearer ${m.accessToken}` } },
    });
    expect((await asGone.from('profiles_private').select('id')).data).toEqual([]);
    expect(
      (await asGone.from('playlists').insert({ name: 'ghost', created_by: m.id })).error,
    ).not.toBeNull();
    expect((await asGone.auth.getUser(m.accessToken)).error).not.toBeNull();
    expect(
      (await anon().auth.refreshSession({ refresh_token: m.refreshToken })).error,
    ).not.toBeNull();
    // The signed URL made before: the object is gone.
    const byUrl = await send('GET', signed.data!.signedUrl);
    expect(byUrl.status).toBeGreaterThanOrEqual(400);
    // Realtime: the open socket was closed, a new join is refused.
    await vi.waitFor(() => expect(closes.length).toBeGreaterThan(0), {
      timeout: 20_000,
      interval: 20,
    });
    const stale = anon();
    realtimeClients.push(stale);
    await stale.realtime.setAuth(m.accessToken);
    const refused = await new Promise<string>((resolve) =>
      stale.channel(`room-${m.id}-again`).subscribe((status) => {
        if (status !== 'TIMED_OUT') resolve(status);
      }),
    );
    expect(refused).toBe('CHANNEL_ERROR');

    // Their track left the other user's playlist; every file is gone from the store.
    const { rows: theirs } = await t.db.query<{ track_ids: string[] }>(
      `select track_ids from public.playlists where created_by = $1 and name = 'Theirs'`,
      [w.other.id],
    );
    expect(theirs).toEqual([{ track_ids: [] }]);
    for (const [bucket, name] of [
      ['tracks', audio],
      ['renditions', `${trackId}/standard.mp3`],
      ['stems', `${trackId}/vocals.mp3`],
      ['avatars', `${m.id}/me.png`],
    ] as const) {
      expect(await t.backend.store.size(bucket, name), `${bucket}/${name}`).toBeNull();
    }

    // The ledger is kept, anonymised.
    const { rows: ledger } = await t.db.query<{ amount: string; former_account: string | null }>(
      `select e.amount, e.former_account from public.earnings_ledger e
        where e.user_id is null and e.track_id = $1 and e.anonymised_at is not null`,
      [w.trackX],
    );
    expect(ledger.some((l) => Number(l.amount) === 3 && l.former_account !== null)).toBe(true);
    // The audit rows are kept and point at the ledger's pseudonym (as actor or in the documents).
    const former = ledger.find((l) => Number(l.amount) === 3)!.former_account!;
    const { rows: kept } = await t.db.query<{
      former_actor: string | null;
      text: string;
      anonymised_at: string | null;
    }>(
      `select former_actor, (target_id || coalesce(before::text, '') || coalesce(after::text, '')) as text,
              anonymised_at from public.admin_audit_log where id = any ($1::bigint[])`,
      [audited.map((a) => a.id)],
    );
    expect(kept).toHaveLength(audited.length);
    for (const row of kept) {
      expect(row.anonymised_at).not.toBeNull();
      expect(row.former_actor === former || row.text.includes(former)).toBe(true);
    }
  });
});

describe('notification settings', () => {
  const FOLLOW_MAIL = / now follows you on Soundloft$/;
  const followed = async (m: Member) =>
    (await mailsTo(m.email)).filter((x) => FOLLOW_MAIL.test(x.subject));

  it('mail a new follower once, not when turned off, and the sender honours a late change', async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    const follow = (who: Member) =>
      who.client.from('followers').insert({ follower_id: who.id, following_id: a.id });
    expect((await follow(b)).error).toBeNull();
    const first = await followed(a);
    expect(first).toHaveLength(1);
    expect(first[0]!.text).toContain(`${t.url}/profile/${b.id}`);
    expect(first[0]!.text).toContain(`${t.url}/settings#notifications`);
    // Unfollow and follow again: once per follower.
    expect(
      (await b.client.from('followers').delete().eq('follower_id', b.id).eq('following_id', a.id))
        .error,
    ).toBeNull();
    expect((await follow(b)).error).toBeNull();
    expect(await followed(a)).toHaveLength(1);

    // Turned off by the owner (another user cannot: the REST matrix): C's follow mails nothing.
    expect(
      (
        await a.client
          .from('notification_preferences')
          .upsert({ user_id: a.id, kind: 'social.new_follower', enabled: false })
      ).error,
    ).toBeNull();
    expect((await follow(c)).error).toBeNull();
    expect(await followed(a)).toHaveLength(1);

    // A follower mail already queued when it was turned off (queued here directly, as if before
    // the change): the sender asks at send time, so it is not sent but marked done. A mail that
    // is not optional still goes.
    await t.db.transaction(async (tx) => {
      await tx.query(
        `select public.enqueue_user_mail($1, 'social.new_follower', 'Late now follows you on Soundloft', 'late')`,
        [a.id],
      );
      await tx.query(
        `select public.enqueue_user_mail($1, 'account.notice', 'An account notice', 'kept')`,
        [a.id],
      );
    });
    const all = await mailsTo(a.email);
    expect(all.filter((x) => FOLLOW_MAIL.test(x.subject))).toHaveLength(1);
    expect(all.map((x) => x.subject)).toContain('An account notice');
    const { rows } = await t.db.query<{ sent_at: string | null; last_error: string | null }>(
      `select sent_at, last_error from public.mail_outbox
        where to_user = $1 and subject = 'Late now follows you on Soundloft'`,
      [a.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sent_at).not.toBeNull();
    expect(rows[0]!.last_error).toMatch(/turned off/);

    // Turned on again: a new follower mails.
    expect(
      (
        await a.client
          .from('notification_preferences')
          .update({ enabled: true })
          .eq('user_id', a.id)
          .eq('kind', 'social.new_follower')
      ).error,
    ).toBeNull();
    const d = await member();
    expect((await follow(d)).error).toBeNull();
    expect(await followed(a)).toHaveLength(2);
    // The kinds are the database's: an unknown one is refused.
    const unknown = await a.client
      .from('notification_preferences')
      .insert({ user_id: a.id, kind: 'account.deletion_scheduled', enabled: false });
    expect(unknown.error).not.toBeNull();
  });
});
