/**
 * What every table and view of the API schema allows, per operation and actor: the suite's
 * declared expectations. `rest-matrix.test.ts` reads the relations from pg_catalog and FAILS
 * for a relation that has no entry here, so a new table is attacked from its first migration.
 *
 * To add a table: an entry with `row` (a fresh row of the owner's, arranged in SQL), `insert`
 * (a row of the owner's as a client would send it), `update` (a change) and `expect`
 * ([anon, owner, other user, admin] per operation):
 * - `ok`: the operation happened (the row was read / written / changed / removed);
 * - `hidden`: answered 2xx but the row was neither seen nor touched (RLS filtered it);
 * - `denied`: answered 401 / 403 and nothing happened (no grant, or RLS refused the new row);
 * - `conflict`: 409 (the owner inserting a row that exists by construction, e.g. the profile).
 */
import type { World } from '../support/world';

export type Outcome = 'ok' | 'hidden' | 'denied' | 'conflict';
export type Expect4 = [anon: Outcome, owner: Outcome, other: Outcome, admin: Outcome];
export const ACTORS = ['anon', 'owner', 'other', 'admin'] as const;
export type Actor = (typeof ACTORS)[number];

export interface RowRef {
  /** The PostgREST filter that selects the row, e.g. `id=eq.<uuid>`. */
  filter: string;
  /** The same row in SQL, `$n` parameters from `params`. */
  where: string;
  params: unknown[];
}

export interface RelationCase {
  /** The columns a read names (default `*`). */
  columns?: string;
  row: (w: World) => Promise<RowRef>;
  insert: (w: World) => Promise<Record<string, unknown>>;
  update: (w: World) => Record<string, unknown>;
  expect: { select: Expect4; insert: Expect4; update: Expect4; delete: Expect4 };
}

const DENIED: Expect4 = ['denied', 'denied', 'denied', 'denied'];
const ALL_OK: Expect4 = ['ok', 'ok', 'ok', 'ok'];
/** No grant to any API role: the server's own tables. */
const SERVER_ONLY = { select: DENIED, insert: DENIED, update: DENIED, delete: DENIED };
const OWNER_AND_ADMIN_READ: Expect4 = ['denied', 'ok', 'hidden', 'ok'];
/** Written only by security definer functions, read by the owner and admins. */
const FUNCTION_WRITTEN = {
  select: OWNER_AND_ADMIN_READ,
  insert: DENIED,
  update: DENIED,
  delete: DENIED,
};

/** The row with these key values (one column or a composite key). */
export function rowRef(keys: Record<string, string>): RowRef {
  const cols = Object.keys(keys);
  return {
    filter: cols.map((c) => `${c}=eq.${keys[c]}`).join('&'),
    where: cols.map((c, i) => `${c} = $${i + 1}`).join(' and '),
    params: Object.values(keys),
  };
}

/** A user's own record (likes, history): they add and remove it, admins may read it. */
const SELF_WRITTEN = {
  select: OWNER_AND_ADMIN_READ,
  insert: ['denied', 'ok', 'denied', 'denied'] as Expect4,
  update: DENIED,
  delete: ['denied', 'ok', 'hidden', 'hidden'] as Expect4,
};

const byId = async (w: World, sql: string, params: unknown[], key = 'id'): Promise<RowRef> => {
  const row = await w.one<Record<string, string>>(sql, params);
  return rowRef({ [key]: String(row[key]) });
};
const fresh = () => Math.random().toString(36).slice(2, 10);

/** A notice about the owner's track (the owner is its uploader), arranged as the server. */
const noticeOf = async (w: World): Promise<string> => {
  const row = await w.one<{ id: string }>(
    `insert into public.copyright_notices (submission_id, uploader_id, track_ids, claimant_name,
       work_description, good_faith_statement, accuracy_statement, signature, acknowledge_due,
       removal_due)
     values (gen_random_uuid(), $1, array[$2::uuid], 'Canary Claimant', 'canary work', true, true,
       'Canary Claimant', now() + interval '48 hours', public.add_business_days(now(), 5))
     returning id`,
    [w.owner.id, w.trackO],
  );
  return row.id;
};
/** A row of a fresh track of the owner's: `sql` takes the track ($1) and the owner ($2). */
const ownFreshTrackRow = async (w: World, sql: string): Promise<RowRef> =>
  byId(w, sql, [await w.freshTrack(w.owner), w.owner.id], 'track_id');

/** An insights listener-key table (the server's own): keyed by `column` = `of(w)` and a random key. */
function listenerKeys(table: string, column: string, of: (w: World) => string): RelationCase {
  return {
    row: (w) =>
      byId(
        w,
        `insert into public.${table} (${column}, listener_key, last_day)
         values ($1, gen_random_uuid(), current_date) returning listener_key`,
        [of(w)],
        'listener_key',
      ),
    insert: async (w) => ({ [column]: of(w), listener_key: w.other.id, last_day: '2026-01-01' }),
    update: () => ({ last_day: '2001-01-01' }),
    expect: SERVER_ONLY,
  };
}

export const TABLES: Record<string, RelationCase> = {
  // Sanctions (docs/trust-and-safety.md): written only by admin_sanction_user/admin_lift_sanction.
  // A warning: it restricts nothing, so the owner keeps acting in the other matrices.
  // Account deletions (docs/privacy-rights.md): scheduled by the delete-account function (the
  // service role), cancelled through cancel_account_deletion; a far date, so the job leaves it.
  account_deletions: {
    row: (w) =>
      byId(
        w,
        `insert into public.account_deletions (user_id, run_after)
         values ($1, now() + interval '14 days')
         on conflict (user_id) do update set run_after = excluded.run_after returning user_id`,
        [w.owner.id],
        'user_id',
      ),
    insert: async (w) => ({ user_id: w.other.id, run_after: new Date().toISOString() }),
    update: () => ({ run_after: new Date().toISOString() }),
    expect: FUNCTION_WRITTEN,
  },
  account_sanctions: {
    row: (w) =>
      byId(
        w,
        `insert into public.account_sanctions (user_id, kind, reason, created_by)
         values ($1, 'warning', 'canary warning', $2) returning id`,
        [w.owner.id, w.admin.id],
      ),
    insert: async (w) => ({ user_id: w.owner.id, kind: 'warning', reason: 'forged' }),
    update: () => ({ lifted_at: new Date().toISOString() }),
    expect: FUNCTION_WRITTEN,
  },
  // Appeals (docs/trust-and-safety.md § Appeals): written only by file_appeal/admin_answer_appeal.
  moderation_appeals: {
    row: async (w) => {
      const s = await w.one<{ id: string }>(
        `insert into public.account_sanctions (user_id, kind, reason, created_by)
         values ($1, 'warning', 'canary warning', $2) returning id`,
        [w.owner.id, w.admin.id],
      );
      return byId(
        w,
        `insert into public.moderation_appeals (user_id, sanction_id, statement, due_at)
         values ($1, $2, 'canary appeal statement', now() + interval '7 days') returning id`,
        [w.owner.id, s.id],
      );
    },
    insert: async (w) => ({ user_id: w.owner.id, statement: 'forged appeal', due_at: 'now()' }),
    update: () => ({ status: 'overturned' }),
    expect: FUNCTION_WRITTEN,
  },
  admin_audit_log: {
    row: (w) =>
      byId(
        w,
        `insert into public.admin_audit_log (actor_id, action, target_table, target_id)
         values ($1, 'canary', 'tracks', $2) returning id`,
        [w.admin.id, w.trackO],
      ),
    insert: async (w) => ({ actor_id: w.owner.id, action: 'x', target_table: 't', target_id: '1' }),
    update: () => ({ action: 'forged' }),
    expect: {
      select: ['denied', 'hidden', 'hidden', 'ok'],
      insert: DENIED,
      update: DENIED,
      delete: DENIED,
    },
  },
  admin_emails: {
    row: (w) =>
      byId(
        w,
        `insert into public.admin_emails (email) values ($1) returning email`,
        [`x-${fresh()}@example.test`],
        'email',
      ),
    insert: async (w) => ({ email: w.owner.email }),
    update: () => ({ email: 'forged@example.test' }),
    expect: SERVER_ONLY,
  },
  app_clock_offset: {
    row: async () => rowRef({ id: 'true' }),
    insert: async () => ({ id: true, offset_by: '1 day' }),
    update: () => ({ offset_by: '30 days' }),
    expect: SERVER_ONLY,
  },
  business_holidays: {
    row: (w) =>
      byId(
        w,
        `insert into public.business_holidays (day, name) values ($1, 'Canary day') returning day`,
        [`${2100 + Math.floor(Math.random() * 7900)}-06-15`],
        'day',
      ),
    insert: async () => ({ day: '2099-12-31', name: 'Forged' }),
    update: () => ({ name: 'Forged' }),
    expect: { select: ALL_OK, insert: DENIED, update: DENIED, delete: DENIED },
  },
  // Copyright (docs/trust-and-safety.md): written only by the copyright_* functions. The owner
  // is the uploader the notice names; the claimant's contact is for admins only.
  copyright_notices: {
    row: async (w) => rowRef({ id: await noticeOf(w) }),
    insert: async (w) => ({
      submission_id: w.owner.id,
      uploader_id: w.owner.id,
      track_ids: [w.trackO],
      claimant_name: 'Forged',
      work_description: 'x',
      good_faith_statement: true,
      accuracy_statement: true,
      signature: 'Forged',
      acknowledge_due: new Date().toISOString(),
      removal_due: new Date().toISOString(),
    }),
    update: () => ({ status: 'restored' }),
    expect: FUNCTION_WRITTEN,
  },
  copyright_notice_contacts: {
    row: async (w) => {
      const id = await noticeOf(w);
      await w.db.query(
        `insert into public.copyright_notice_contacts (notice_id, email, address, phone)
         values ($1, 'claimant@canary.test', 'Canary street 1', '+1 555 0100')`,
        [id],
      );
      return rowRef({ notice_id: id });
    },
    insert: async (w) => ({ notice_id: await noticeOf(w), email: 'forged@example.test' }),
    update: () => ({ email: 'forged@example.test' }),
    expect: {
      select: ['denied', 'hidden', 'hidden', 'ok'],
      insert: DENIED,
      update: DENIED,
      delete: DENIED,
    },
  },
  copyright_counter_notices: {
    row: async (w) =>
      byId(
        w,
        `insert into public.copyright_counter_notices (notice_id, uploader_id, full_name, address,
           email, explanation, good_faith_mistake, consent_to_jurisdiction, signature)
         values ($1, $2, 'Canary Owner', 'Canary road 2', 'owner@canary.test', 'mine', true, true,
           'Canary Owner') returning id`,
        [await noticeOf(w), w.owner.id],
      ),
    insert: async (w) => ({
      notice_id: await noticeOf(w),
      uploader_id: w.owner.id,
      full_name: 'Forged',
      address: 'x',
      email: 'forged@example.test',
      explanation: 'x',
      good_faith_mistake: true,
      consent_to_jurisdiction: true,
      signature: 'Forged',
    }),
    update: () => ({ explanation: 'forged' }),
    expect: FUNCTION_WRITTEN,
  },
  copyright_strikes: {
    row: async (w) =>
      byId(
        w,
        // Lifted: an active strike applies the ladder to the owner (a warning, then a
        // suspension: the other relations' owner cases would meet it).
        `insert into public.copyright_strikes (user_id, notice_id, lifted_at, lift_reason)
         values ($1, $2, now(), 'canary') returning id`,
        [w.owner.id, await noticeOf(w)],
      ),
    insert: async (w) => ({ user_id: w.owner.id, notice_id: await noticeOf(w) }),
    update: () => ({ lifted_at: new Date().toISOString() }),
    expect: FUNCTION_WRITTEN,
  },
  // Action links (docs/trust-and-safety.md § Action links: counter-notice, appeal and the
  // claimant's legal action): the server's own; only their definer functions read them, by the
  // token's hash.
  action_links: {
    row: async (w) =>
      byId(
        w,
        `insert into public.action_links (token_hash, purpose, user_id, notice_id, expires_at)
         values (sha256(gen_random_uuid()::text::bytea), 'counter_notice', $1, $2,
                 now() + interval '30 days') returning id`,
        [w.owner.id, await noticeOf(w)],
      ),
    insert: async (w) => ({
      token_hash: '\\x00',
      purpose: 'counter_notice',
      user_id: w.owner.id,
      notice_id: await noticeOf(w),
      expires_at: new Date().toISOString(),
    }),
    update: () => ({ used_at: null }),
    expect: SERVER_ONLY,
  },
  // The one mail outbox (server/mail/outbox.ts, migration 20261201040000): the server's own.
  mail_outbox: {
    row: (w) =>
      byId(
        w,
        // Already sent: the target's sender (woken by the insert) leaves it as it is.
        `insert into public.mail_outbox (template, to_email, params, sent_at)
         values ('canary', 'canary@example.test', '{}', now()) returning id`,
        [],
      ),
    insert: async () => ({ template: 'forged', to_email: 'forged@example.test' }),
    update: () => ({ sent_at: new Date().toISOString() }),
    expect: SERVER_ONLY,
  },
  admins: {
    // The admin's own row (admins are the only owners here).
    row: (w) =>
      byId(w, 'select user_id from public.admins where user_id = $1', [w.admin.id], 'user_id'),
    insert: async (w) => ({ user_id: w.owner.id }),
    update: (w) => ({ user_id: w.owner.id }),
    expect: {
      select: ['denied', 'hidden', 'hidden', 'ok'],
      insert: DENIED,
      update: DENIED,
      delete: DENIED,
    },
  },
  // Data exports (docs/privacy-rights.md): requested through request_data_export, built by the
  // server's job. An expired one (the job leaves it), on a day of its own.
  data_exports: {
    row: (w) =>
      byId(
        w,
        `insert into public.data_exports (user_id, requested_on, state)
         values ($1, current_date - (1 + floor(random() * 100000))::int, 'expired') returning id`,
        [w.owner.id],
      ),
    insert: async (w) => ({ user_id: w.owner.id, requested_on: '2001-01-01' }),
    update: () => ({ state: 'ready', object_name: 'forged.zip' }),
    expect: FUNCTION_WRITTEN,
  },
  earnings_ledger: {
    row: async (w) => {
      await w.db.query(`select public.post_ledger_entry($1, 0.0021, 'play', $2, $3)`, [
        w.owner.id,
        w.trackO,
        w.other.id,
      ]);
      return byId(
        w,
        `select id from public.earnings_ledger where user_id = $1
         order by created_at desc, id limit 1`,
        [w.owner.id],
      );
    },
    insert: async (w) => ({ user_id: w.owner.id, amount: 1000, kind: 'play' }),
    update: () => ({ amount: 1000 }),
    expect: FUNCTION_WRITTEN,
  },
  followers: {
    row: async (w) => {
      const followed = await w.freshUser();
      await w.db.query('insert into public.followers (follower_id, following_id) values ($1, $2)', [
        w.owner.id,
        followed.id,
      ]);
      return rowRef({ follower_id: w.owner.id, following_id: followed.id });
    },
    insert: async (w) => ({ follower_id: w.owner.id, following_id: (await w.freshUser()).id }),
    update: (w) => ({ following_id: w.admin.id }),
    expect: {
      select: ALL_OK,
      insert: ['denied', 'ok', 'denied', 'denied'],
      update: DENIED,
      delete: ['denied', 'ok', 'hidden', 'ok'],
    },
  },
  liked_tracks: {
    row: async (w) =>
      byId(w, 'insert into public.liked_tracks (user_id, track_id) values ($1, $2) returning id', [
        w.owner.id,
        await w.freshTrack(),
      ]),
    insert: async (w) => ({ user_id: w.owner.id, track_id: await w.freshTrack() }),
    update: (w) => ({ track_id: w.trackO }),
    expect: SELF_WRITTEN,
  },
  listening_history: {
    row: (w) =>
      byId(
        w,
        'insert into public.listening_history (user_id, track_id) values ($1, $2) returning id',
        [w.owner.id, w.trackX],
      ),
    insert: async (w) => ({ user_id: w.owner.id, track_id: w.trackX }),
    update: (w) => ({ track_id: w.trackO }),
    expect: SELF_WRITTEN,
  },
  // Artist insights (docs/insights.md): the server's own tables; artists read aggregates of
  // their own tracks through artist_insights only, never these rows.
  insights_artist_daily: {
    row: async (w) => {
      const day = `20${10 + Math.floor(Math.random() * 80)}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`;
      await w.one(
        `insert into public.insights_artist_daily (artist_id, day, followers) values ($1, $2, 1)
         on conflict (artist_id, day) do update set followers = 1 returning day`,
        [w.owner.id, day],
      );
      return rowRef({ artist_id: w.owner.id, day });
    },
    insert: async (w) => ({ artist_id: w.owner.id, day: '2001-01-01', followers: 5 }),
    update: () => ({ followers: 1_000_000 }),
    expect: SERVER_ONLY,
  },
  insights_artist_listeners: listenerKeys(
    'insights_artist_listeners',
    'artist_id',
    (w) => w.owner.id,
  ),
  insights_bucket_listeners: {
    row: (w) =>
      byId(
        w,
        `insert into public.insights_bucket_listeners (scope_id, per, bucket, listeners)
         values ($1, 'day', date '1990-01-01' + (random() * 3000)::int, 7)
         on conflict (scope_id, per, bucket) do update set listeners = 7 returning scope_id`,
        [w.trackO],
        'scope_id',
      ),
    insert: async (w) => ({ scope_id: w.trackO, per: 'week', bucket: '2001-01-01', listeners: 9 }),
    update: () => ({ listeners: 1_000_000 }),
    expect: SERVER_ONLY,
  },
  insights_daily: {
    row: (w) =>
      ownFreshTrackRow(
        w,
        `insert into public.insights_daily (track_id, artist_id, day, plays)
         values ($1, $2, current_date, 3) returning track_id`,
      ),
    insert: async (w) => ({
      track_id: w.trackO,
      artist_id: w.owner.id,
      day: '2001-01-01',
      plays: 9,
    }),
    update: () => ({ plays: 1_000_000 }),
    expect: SERVER_ONLY,
  },
  insights_rollup_days: {
    row: (w) =>
      byId(
        w,
        `insert into public.insights_rollup_days (day) values (date '1990-01-01' + (random() * 3000)::int)
         on conflict (day) do update set rolled_at = now() returning day::text`,
        [],
        'day',
      ),
    insert: async () => ({ day: '2099-01-01' }),
    update: () => ({ rolled_at: '2001-01-01T00:00:00Z' }),
    expect: SERVER_ONLY,
  },
  insights_rollup_hours: {
    row: (w) =>
      byId(
        w,
        `insert into public.insights_rollup_hours (hour)
         values (timestamptz '1990-01-01' + make_interval(hours => (random() * 30000)::int))
         on conflict (hour) do update set rolled_at = now()
         returning to_char(hour at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as hour`,
        [],
        'hour',
      ),
    insert: async () => ({ hour: '2099-01-01T00:00:00Z' }),
    update: () => ({ rolled_at: '2001-01-01T00:00:00Z' }),
    expect: SERVER_ONLY,
  },
  insights_sources_daily: {
    row: (w) =>
      ownFreshTrackRow(
        w,
        `insert into public.insights_sources_daily (track_id, artist_id, day, source, plays, listeners)
         values ($1, $2, current_date, 'explore', 5, 5) returning track_id`,
      ),
    insert: async (w) => ({
      track_id: w.trackO,
      artist_id: w.owner.id,
      day: '2001-01-01',
      source: 'search',
      plays: 9,
      listeners: 9,
    }),
    update: () => ({ plays: 1_000_000 }),
    expect: SERVER_ONLY,
  },
  insights_track_listeners: listenerKeys('insights_track_listeners', 'track_id', (w) => w.trackO),
  plans: {
    row: async () => rowRef({ id: 'free' }),
    insert: async () => ({
      id: 'basic',
      name: 'Forged',
      price_eur: 0,
      description: 'x',
      audio_quality: 'x',
      audio_lossless: true,
      offline_downloads: true,
      ads: false,
      sort_order: 9,
    }),
    update: () => ({ price_eur: 0, offline_downloads: true }),
    expect: { select: ALL_OK, insert: DENIED, update: DENIED, delete: DENIED },
  },
  play_events: {
    row: (w) =>
      byId(
        w,
        `insert into public.play_events (listener_id, track_id, session_id, counted)
         values ($1, $2, $3, true) returning id`,
        [w.owner.id, w.trackX, `s-${fresh()}`],
      ),
    insert: async (w) => ({
      listener_id: w.owner.id,
      track_id: w.trackX,
      session_id: fresh(),
      counted: true,
    }),
    update: () => ({ counted: false, refusal: 'too_fast' }),
    expect: FUNCTION_WRITTEN,
  },
  // Two-factor recovery codes (docs/account.md): hashes no API role may read or write; only
  // create_mfa_recovery_codes / use_mfa_recovery_code touch them.
  mfa_recovery_codes: {
    row: (w) =>
      byId(
        w,
        `insert into public.mfa_recovery_codes (user_id, code_hash) values ($1, $2) returning id`,
        [w.owner.id, fresh()],
      ),
    insert: async (w) => ({ user_id: w.owner.id, code_hash: 'forged' }),
    update: () => ({ used_at: null }),
    expect: SERVER_ONLY,
  },
  mfa_recovery_failures: {
    row: (w) =>
      byId(w, `insert into public.mfa_recovery_failures (user_id) values ($1) returning id`, [
        w.owner.id,
      ]),
    insert: async (w) => ({ user_id: w.other.id }),
    update: () => ({ at: '2000-01-01T00:00:00Z' }),
    expect: SERVER_ONLY,
  },
  // ADMIN_REQUIRE_MFA (docs/account.md): written by the server at start, read by is_admin().
  security_settings: {
    row: async () => rowRef({ id: 'true' }),
    insert: async () => ({ id: true, admin_require_mfa: false }),
    update: () => ({ admin_require_mfa: false }),
    expect: SERVER_ONLY,
  },
  // Notification settings (docs/account.md § Notifications): the owner's alone, not even admins
  // read them. The insert is the owner's existing row again (409), so the outcome does not
  // depend on which case ran first.
  notification_preferences: {
    row: (w) =>
      byId(
        w,
        `insert into public.notification_preferences (user_id, kind, enabled)
         values ($1, 'social.new_follower', true)
         on conflict (user_id, kind) do update set enabled = true returning user_id`,
        [w.owner.id],
        'user_id',
      ),
    insert: async (w) => {
      await w.db.query(
        `insert into public.notification_preferences (user_id, kind, enabled)
         values ($1, 'social.new_follower', true) on conflict do nothing`,
        [w.owner.id],
      );
      return { user_id: w.owner.id, kind: 'social.new_follower', enabled: false };
    },
    update: () => ({ enabled: false }),
    expect: {
      select: ['denied', 'ok', 'hidden', 'hidden'],
      insert: ['denied', 'conflict', 'denied', 'denied'],
      update: ['denied', 'ok', 'hidden', 'hidden'],
      delete: ['denied', 'ok', 'hidden', 'hidden'],
    },
  },
  play_source_notes: {
    row: async (w) => {
      const session = `s-${fresh()}`;
      await w.one(
        `insert into public.play_source_notes (listener_id, track_id, session_id, source)
         values ($1, $2, $3, 'explore') returning session_id`,
        [w.owner.id, w.trackX, session],
      );
      return rowRef({ listener_id: w.owner.id, track_id: w.trackX, session_id: session });
    },
    insert: async (w) => ({
      listener_id: w.owner.id,
      track_id: w.trackX,
      session_id: fresh(),
      source: 'search',
    }),
    update: () => ({ source: 'offline' }),
    expect: SERVER_ONLY,
  },
  play_sources: {
    row: (w) =>
      byId(
        w,
        `with e as (
           insert into public.play_events (listener_id, track_id, session_id, counted)
           values ($1, $2, $3, true) returning id)
         insert into public.play_sources (event_id, source) select id, 'explore' from e
         returning event_id`,
        [w.owner.id, w.trackX, `s-${fresh()}`],
        'event_id',
      ),
    insert: async () => ({ event_id: '00000000-0000-4000-8000-000000000000', source: 'search' }),
    update: () => ({ source: 'offline' }),
    expect: SERVER_ONLY,
  },
  playlist_track_adds: {
    row: async (w) => {
      const track = await w.freshTrack(w.owner);
      await w.one(
        `insert into public.playlist_track_adds (playlist_id, track_id) values ($1, $2) returning track_id`,
        [w.playlistO, track],
      );
      return rowRef({ playlist_id: w.playlistO, track_id: track });
    },
    insert: async (w) => ({ playlist_id: w.playlistO, track_id: w.trackO }),
    update: () => ({ added_at: '2001-01-01T00:00:00Z' }),
    expect: SERVER_ONLY,
  },
  playlists: {
    row: async (w) => {
      const { rows } = await w.db.query<{ id: string }>(
        `insert into public.playlists (name, created_by) values ('Mine', $1) returning id`,
        [w.owner.id],
      );
      const id = rows[0]!.id;
      return rowRef({ id: id });
    },
    insert: async (w) => ({ name: 'New', created_by: w.owner.id }),
    update: () => ({ name: 'Renamed' }),
    expect: {
      select: ALL_OK,
      insert: ['denied', 'ok', 'denied', 'denied'],
      update: ['denied', 'ok', 'hidden', 'hidden'],
      delete: ['denied', 'ok', 'hidden', 'ok'],
    },
  },
  profiles: {
    columns: 'id,name,bio,subscription_plan,followers',
    row: async (w) => rowRef({ id: w.owner.id }),
    insert: async (w) => ({ id: w.owner.id, name: 'Again' }),
    update: () => ({ bio: `bio ${fresh()}` }),
    expect: {
      select: ALL_OK,
      insert: ['denied', 'conflict', 'denied', 'denied'],
      update: ['denied', 'ok', 'hidden', 'ok'],
      delete: DENIED,
    },
  },
  profiles_private: {
    row: async (w) => rowRef({ id: w.owner.id }),
    insert: async (w) => ({ id: w.owner.id, balance: 1 }),
    update: () => ({ balance: 1_000_000 }),
    expect: FUNCTION_WRITTEN,
  },
  served_audio: {
    row: (w) =>
      byId(
        w,
        `insert into public.served_audio (listener_id, track_id, object, object_size, bytes)
         values ($1, $2, $3, 10, '{[0,10)}') returning id`,
        [w.owner.id, w.trackX, `tracks/${fresh()}`],
      ),
    insert: async (w) => ({
      listener_id: w.owner.id,
      track_id: w.trackX,
      object: 'tracks/x',
      object_size: 10,
      bytes: '{[0,10)}',
    }),
    update: () => ({ bytes: '{[0,1000000)}' }),
    expect: SERVER_ONLY,
  },
  stem_jobs: {
    row: async (w) =>
      byId(
        w,
        `insert into public.stem_jobs (track_id, requested_by) values ($1, $2)
         on conflict (track_id) do update set requested_by = excluded.requested_by returning track_id`,
        [await w.freshTrack(w.owner), w.owner.id],
        'track_id',
      ),
    insert: async (w) => ({ track_id: await w.freshTrack(w.owner), requested_by: w.owner.id }),
    update: () => ({ state: 'done' }),
    expect: SERVER_ONLY,
  },
  storage_garbage: {
    row: (w) =>
      byId(
        w,
        `insert into public.storage_garbage (bucket_id, name) values ('tracks', $1) returning name`,
        [`${w.owner.id}/${fresh()}.mp3`],
        'name',
      ),
    insert: async (w) => ({ bucket_id: 'tracks', name: `${w.other.id}/victim.mp3` }),
    update: (w) => ({ name: `${w.other.id}/victim.mp3` }),
    expect: SERVER_ONLY,
  },
  stripe_events: {
    row: (w) =>
      byId(
        w,
        `insert into public.stripe_events (id, type, stripe_created_at, outcome, user_id)
         values ($1, 'customer.subscription.updated', now(), 'applied', $2) returning id`,
        [`evt_${fresh()}`, w.owner.id],
      ),
    insert: async (w) => ({
      id: `evt_${fresh()}`,
      type: 'x',
      stripe_created_at: new Date().toISOString(),
      outcome: 'applied',
      user_id: w.owner.id,
    }),
    update: () => ({ outcome: 'forged' }),
    expect: {
      select: ['denied', 'hidden', 'hidden', 'ok'],
      insert: DENIED,
      update: DENIED,
      delete: DENIED,
    },
  },
  subscriptions: {
    row: (w) =>
      byId(
        w,
        `insert into public.subscriptions (id, user_id, customer_id, plan_id, price_id, status)
         values ($1, $2, 'cus_x', 'basic', 'price_x', 'active') returning id`,
        [`sub_${fresh()}`, w.owner.id],
      ),
    insert: async (w) => ({
      id: `sub_${fresh()}`,
      user_id: w.owner.id,
      customer_id: 'cus_x',
      plan_id: 'premium',
      price_id: 'p',
      status: 'active',
    }),
    update: () => ({ plan_id: 'premium', status: 'active' }),
    expect: FUNCTION_WRITTEN,
  },
  sync_deletions: {
    row: (w) =>
      byId(
        w,
        `insert into public.sync_deletions (table_name, row_key, visible_to)
         values ('liked_tracks', $2, $1) returning id`,
        [w.owner.id, fresh()],
      ),
    insert: async (w) => ({ table_name: 'tracks', row_key: w.trackX, visible_to: null }),
    update: () => ({ row_key: 'forged' }),
    expect: {
      select: ['hidden', 'ok', 'hidden', 'hidden'],
      insert: DENIED,
      update: DENIED,
      delete: DENIED,
    },
  },
  sync_mutations: {
    row: async (w) => {
      const id = crypto.randomUUID();
      await w.db.query(
        `insert into public.sync_mutations (user_id, mutation_id, client_id, op, status)
         values ($1, $2, 'c', 'like.add', 'applied')`,
        [w.owner.id, id],
      );
      return rowRef({ user_id: w.owner.id, mutation_id: id });
    },
    insert: async (w) => ({
      user_id: w.owner.id,
      mutation_id: crypto.randomUUID(),
      client_id: 'c',
      op: 'like.add',
      status: 'applied',
    }),
    update: () => ({ status: 'rejected' }),
    expect: {
      select: ['denied', 'ok', 'hidden', 'hidden'],
      insert: ['denied', 'ok', 'denied', 'denied'],
      update: DENIED,
      delete: ['denied', 'ok', 'hidden', 'hidden'],
    },
  },
  track_downloads: {
    row: async (w) => {
      const track = await w.freshTrack();
      await w.db.query(
        `insert into public.track_downloads (user_id, track_id, object, valid_until)
         values ($1, $2, 'tracks/x', now() + interval '1 day')`,
        [w.owner.id, track],
      );
      return rowRef({ user_id: w.owner.id, track_id: track });
    },
    insert: async (w) => ({
      user_id: w.owner.id,
      track_id: await w.freshTrack(),
      object: 'tracks/x',
      valid_until: '2999-01-01T00:00:00Z',
    }),
    update: () => ({ valid_until: '2999-01-01T00:00:00Z' }),
    expect: FUNCTION_WRITTEN,
  },
  track_jobs: {
    row: async (w) =>
      byId(
        w,
        `insert into public.track_jobs (track_id) values ($1)
         on conflict (track_id) do update set attempts = 0 returning track_id`,
        [await w.freshTrack(w.owner)],
        'track_id',
      ),
    insert: async (w) => ({ track_id: await w.freshTrack(w.owner) }),
    update: () => ({ state: 'done' }),
    expect: SERVER_ONLY,
  },
  track_lyrics: {
    row: async (w) => {
      const track = await w.freshTrack(w.owner);
      await w.db.query(
        `insert into public.track_lyrics (track_id) values ($1) on conflict do nothing`,
        [track],
      );
      return rowRef({ track_id: track });
    },
    insert: async (w) => {
      const track = await w.freshTrack(w.owner);
      await w.db.query('delete from public.track_lyrics where track_id = $1', [track]);
      return { track_id: track, lyrics: [{ text: 'la' }] };
    },
    update: () => ({ language: 'fr' }),
    expect: {
      select: ALL_OK,
      insert: ['denied', 'ok', 'denied', 'ok'],
      update: ['denied', 'ok', 'hidden', 'ok'],
      delete: ['denied', 'ok', 'hidden', 'ok'],
    },
  },
  track_reports: {
    // One open report per reporter and track: a fresh track each time.
    row: async (w) =>
      byId(
        w,
        `insert into public.track_reports (track_id, reporter_id, reason) values ($1, $2, 'spam') returning id`,
        [await w.freshTrack(), w.owner.id],
      ),
    // reporter_id is always the caller (its default; only track_id, reason and note are
    // granted): nobody can report in another's name, and every signed-in user may report.
    insert: async (w) => ({ track_id: await w.freshTrack(), reason: 'other' }),
    update: () => ({ status: 'dismissed' }),
    expect: {
      select: OWNER_AND_ADMIN_READ,
      insert: ['denied', 'ok', 'ok', 'ok'],
      update: DENIED,
      delete: DENIED,
    },
  },
  track_waveforms: {
    row: async (w) =>
      byId(
        w,
        `insert into public.track_waveforms (track_id, sample_rate, samples_per_pixel, length, data)
         values ($1, 8000, 256, 2, '[0,1]') returning track_id`,
        [await w.freshTrack(w.owner)],
        'track_id',
      ),
    insert: async (w) => ({
      track_id: await w.freshTrack(w.owner),
      sample_rate: 8000,
      samples_per_pixel: 256,
      length: 0,
      data: [],
    }),
    update: () => ({ data: [9, 9] }),
    expect: { select: ALL_OK, insert: DENIED, update: DENIED, delete: DENIED },
  },
  tracks: {
    row: async (w) => {
      const id = await w.freshTrack(w.owner);
      return rowRef({ id: id });
    },
    insert: async (w) => ({
      title: 'Uploaded',
      artist: 'Owner',
      audio_url: `tracks/${await w.freshAudio()}`,
      uploaded_by: w.owner.id,
    }),
    update: () => ({ title: `Renamed ${fresh()}` }),
    expect: {
      select: ALL_OK,
      insert: ['denied', 'ok', 'denied', 'denied'],
      update: ['denied', 'ok', 'hidden', 'ok'],
      delete: ['denied', 'ok', 'hidden', 'ok'],
    },
  },
  withdrawals: {
    row: (w) =>
      byId(
        w,
        `insert into public.withdrawals (user_id, amount, method, details)
         values ($1, 5, 'paypal', 'o@example.test') returning id`,
        [w.owner.id],
      ),
    insert: async (w) => ({ user_id: w.owner.id, amount: 5, method: 'paypal', details: 'x' }),
    update: () => ({ status: 'completed' }),
    expect: FUNCTION_WRITTEN,
  },
};
