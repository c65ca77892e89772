/**
 * The moderation queue and appeals (docs/trust-and-safety.md § Moderation queue, § Appeals,
 * § Decision e-mails), with the official supabase-js client against the real backend: only
 * admins read the queue, act on a report and answer appeals; a user appeals only a decision about
 * them, only within 30 days, once; an overturned appeal lifts the sanction or restores the track;
 * every step is audited and e-mailed (the outbox is sent by the server, read from its dev
 * mailbox). Time is moved by rewriting timestamps through the server connection, never by sleeping.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrack, createUser, type TestUser } from '../../server/db/test-factories';
import { startTarget, type Target } from './support/target';
import { buildWorld, type World } from './support/world';

let t: Target;
let w: World;

beforeAll(async () => {
  t = await startTarget();
  w = await buildWorld(t.db);
});
afterAll(async () => {
  await t?.close();
});

const options = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as never },
};
const anon = () => createClient(t.url, t.keys.anonKey, options);
const as = (user: TestUser): SupabaseClient =>
  createClient(t.url, t.keys.anonKey, {
    ...options,
    global: { headers: { Authorization: `Bearer ${t.token(user)}` } },
  });
const admin = () => as(w.admin);

interface QueueRow {
  kind: string;
  id: string;
  status: string;
  due_at: string;
  created_at: string;
  overdue: boolean;
  subject_user: string;
  subject_warnings: number;
}
const queue = async (args: Record<string, unknown> = {}) => {
  const r = await admin().rpc('admin_moderation_queue', args);
  expect(r.error).toBeNull();
  return r.data as QueueRow[];
};

/** A report by `reporter` on a fresh track of `uploader`'s. */
async function report(uploader: TestUser, reporter: TestUser) {
  const track = (await createTrack(t.db, uploader)).id;
  const r = await as(reporter)
    .from('track_reports')
    .insert({ track_id: track, reason: 'offensive', note: 'Hateful lyrics' })
    .select('id')
    .single();
  expect(r.error).toBeNull();
  return { track, report: (r.data as { id: string }).id };
}

const warn = (user: string) =>
  admin().rpc('admin_sanction_user', {
    p_user: user,
    p_kind: 'warning',
    p_reason: 'Spam in titles.',
    p_days: null,
  });

/** The e-mails sent to `email` so far (the outbox drained first), oldest first. */
async function mails(email: string) {
  await t.backend.mailOutbox!.drain();
  return t.backend.mailer
    .list()
    .filter((m) => m.to === email)
    .reverse();
}

describe('the moderation queue', () => {
  it('is read by admins only', async () => {
    const uploader = await createUser(t.db);
    await report(uploader, w.other);
    for (const who of [anon(), as(w.owner), as(uploader)]) {
      const r = await who.rpc('admin_moderation_queue', {});
      expect(r.error, 'a non-admin read the queue').not.toBeNull();
      expect(r.data).toBeNull();
    }
    const rows = await queue({ p_kind: 'report' });
    expect(rows.some((r) => r.subject_user === uploader.id)).toBe(true);
  });

  it('gives reports a 24 h deadline, sorts by deadline and filters type, status and overdue', async () => {
    const uploader = await createUser(t.db);
    const late = await report(uploader, w.other);
    const fresh = await report(uploader, w.other);
    // handle_timestamps keeps created_at on update: moved with the trigger off for a moment.
    await t.db.transaction(async (tx) => {
      await tx.query(`alter table public.track_reports disable trigger handle_timestamps`);
      await tx.query(
        `update public.track_reports set created_at = now() - interval '25 hours' where id = $1`,
        [late.report],
      );
      await tx.query(`alter table public.track_reports enable trigger handle_timestamps`);
    });
    const reports = await queue({ p_kind: 'report' });
    const lateRow = reports.find((r) => r.id === late.report)!;
    const freshRow = reports.find((r) => r.id === fresh.report)!;
    expect(new Date(freshRow.due_at).getTime() - new Date(freshRow.created_at).getTime()).toBe(
      24 * 3_600_000,
    );
    expect(lateRow.overdue).toBe(true);
    expect(freshRow.overdue).toBe(false);
    const dues = reports.map((r) => new Date(r.due_at).getTime());
    expect(dues).toEqual([...dues].sort((a, b) => a - b));

    const overdue = await queue({ p_overdue: true });
    expect(overdue.map((r) => r.id)).toContain(late.report);
    expect(overdue.map((r) => r.id)).not.toContain(fresh.report);
    expect(overdue.every((r) => r.overdue)).toBe(true);
    expect((await queue({ p_kind: 'appeal' })).every((r) => r.kind === 'appeal')).toBe(true);

    const closed = await admin().rpc('resolve_track_report', {
      report_id: fresh.report,
      action: 'dismiss',
    });
    expect(closed.error).toBeNull();
    expect((await queue()).map((r) => r.id)).not.toContain(fresh.report);
    const closedRows = await queue({ p_status: 'closed', p_kind: 'report' });
    expect(closedRows.find((r) => r.id === fresh.report)?.status).toBe('closed');
    expect(
      (await admin().rpc('admin_moderation_queue', { p_kind: 'nonsense' })).error,
    ).not.toBeNull();
  });

  it("lists copyright notices by their due date, with the uploader's strikes", async () => {
    const uploader = await createUser(t.db);
    const track = (await createTrack(t.db, uploader)).id;
    const notice = await t.db.query<{ id: string; removal_due: string }>(
      `insert into public.copyright_notices (submission_id, uploader_id, track_ids, claimant_name,
         work_description, good_faith_statement, accuracy_statement, signature, acknowledge_due,
         removal_due)
       values (gen_random_uuid(), $1, array[$2::uuid], 'Label Records', 'Our song', true, true,
         'Label Records', now() + interval '2 days', now() - interval '1 hour')
       returning id, removal_due`,
      [uploader.id, track],
    );
    const old = await t.db.query<{ id: string }>(
      `insert into public.copyright_notices (submission_id, uploader_id, track_ids, claimant_name,
         work_description, good_faith_statement, accuracy_statement, signature, acknowledge_due,
         removal_due, status, removed_at)
       values (gen_random_uuid(), $1, array[$2::uuid], 'Label Records', 'Old song', true, true,
         'Label Records', now(), now(), 'removed', now())
       returning id`,
      [uploader.id, track],
    );
    await t.db.query(`insert into public.copyright_strikes (user_id, notice_id) values ($1, $2)`, [
      uploader.id,
      old.rows[0]!.id,
    ]);
    const rows = await queue({ p_kind: 'notice' });
    const row = rows.find((r) => r.id === notice.rows[0]!.id) as QueueRow & {
      subject_strikes: number;
    };
    expect(row).toMatchObject({
      kind: 'notice',
      status: 'open',
      overdue: true,
      subject_strikes: 1,
    });
    expect(Date.parse(row.due_at)).toBe(Date.parse(notice.rows[0]!.removal_due));
    expect(rows.map((r) => r.id)).not.toContain(old.rows[0]!.id);
    expect(
      (await as(uploader).rpc('admin_moderation_queue', { p_kind: 'notice' })).error,
    ).not.toBeNull();
  });

  it('applies the ladder from a report (admins only): a warning with the removal of the track', async () => {
    const uploader = await createUser(t.db);
    const r = await report(uploader, w.other);
    const args = {
      p_report: r.report,
      p_kind: 'warning',
      p_reason: 'Hateful lyrics.',
      p_days: null,
      p_remove_track: true,
    };
    for (const who of [anon(), as(w.owner), as(uploader)]) {
      expect((await who.rpc('admin_sanction_from_report', args)).error).not.toBeNull();
    }
    const made = await admin().rpc('admin_sanction_from_report', args);
    expect(made.error).toBeNull();
    const { rows } = await t.db.query<{ status: string; down: boolean }>(
      `select r.status, t.taken_down_at is not null as down
       from public.track_reports r join public.tracks t on t.id = r.track_id where r.id = $1`,
      [r.report],
    );
    expect(rows).toEqual([{ status: 'taken_down', down: true }]);
    const audit = await t.db.query<{ action: string; actor_id: string }>(
      `select action, actor_id from public.admin_audit_log
       where target_id = any ($1::text[]) order by id`,
      [[r.report, (made.data as { id: string }).id]],
    );
    expect(audit.rows).toEqual([
      { action: 'account.warning', actor_id: w.admin.id },
      { action: 'report.sanction', actor_id: w.admin.id },
    ]);
    // /appeals lists the removal on the warning (buildMyDecisions in
    // src/data/remote/moderation-remote.ts): what the uploader reads pairs them exactly.
    const mine = as(uploader);
    const sanction = await mine
      .from('account_sanctions')
      .select('created_at, reason')
      .eq('id', (made.data as { id: string }).id)
      .single();
    const track = await mine
      .from('tracks')
      .select('taken_down_at, takedown_reason')
      .eq('id', r.track)
      .single();
    expect(track.data).toEqual({
      taken_down_at: sanction.data!.created_at,
      takedown_reason: sanction.data!.reason,
    });
    const sent = await mails(uploader.email);
    expect(sent.map((m) => m.subject)).toEqual(['A warning on your Soundloft account']);
    expect(sent[0]!.text).toContain('Removed: "');
    expect(sent[0]!.text).toContain(`${t.url}/appeals`);
    expect((await admin().rpc('admin_sanction_from_report', args)).error?.message).toMatch(
      /already been handled/,
    );
  });
  it("e-mails the uploader a report's takedown in its transaction, and nobody a dismissal", async () => {
    const uploader = await createUser(t.db);
    const kept = await report(uploader, w.other);
    expect(
      (await admin().rpc('resolve_track_report', { report_id: kept.report, action: 'dismiss' }))
        .error,
    ).toBeNull();
    const queued = (track: string) =>
      t.db.query<{ to_user: string; template: string; subject: string; body: string }>(
        `select to_user, template, subject, body from public.mail_outbox
         where template = 'report.take_down' and to_user = $1 and strpos(subject, $2) > 0`,
        [uploader.id, track],
      );
    expect((await mails(uploader.email)).length).toBe(0);

    const down = await report(uploader, w.other);
    const { rows: titled } = await t.db.query<{ title: string }>(
      `update public.tracks set title = $2 where id = $1 returning title`,
      [down.track, `Removed ${down.track.slice(0, 8)}`],
    );
    const title = titled[0]!.title;
    const done = await admin().rpc('resolve_track_report', {
      report_id: down.report,
      action: 'take_down',
      reason: 'Hateful lyrics.',
    });
    expect(done.error).toBeNull();
    const { rows } = await queued(title);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.to_user).toBe(uploader.id);
    const sent = await mails(uploader.email);
    expect(sent.map((m) => m.subject)).toEqual([`Your track "${title}" has been removed`]);
    expect(sent[0]!.text).toContain('Reason: Hateful lyrics.');
    expect(sent[0]!.text).toContain('earns nothing');
    expect(sent[0]!.text).toContain(`within 30 days: ${t.url}/appeals`);
    // A second report on the track already down closes without a second decision or e-mail.
    const again = await as(w.owner)
      .from('track_reports')
      .insert({ track_id: down.track, reason: 'spam' })
      .select('id')
      .single();
    expect(again.error).toBeNull();
    expect(
      (
        await admin().rpc('resolve_track_report', {
          report_id: (again.data as { id: string }).id,
          action: 'take_down',
        })
      ).error,
    ).toBeNull();
    expect((await queued(title)).rows).toHaveLength(1);
  });
});

describe('appeals', () => {
  it('a user appeals only their own decision, once, within 30 days', async () => {
    const user = await createUser(t.db);
    const stranger = await createUser(t.db);
    const made = await warn(user.id);
    expect(made.error).toBeNull();
    const sanction = (made.data as { id: string }).id;
    const statement = 'The title was a joke between friends, not spam.';

    expect(
      (await anon().rpc('file_appeal', { p_statement: statement, p_sanction: sanction })).error,
    ).not.toBeNull();
    const foreign = await as(stranger).rpc('file_appeal', {
      p_statement: statement,
      p_sanction: sanction,
    });
    expect(foreign.error?.message).toMatch(/No such decision/);
    // Nor by writing the table.
    const forged = await as(stranger)
      .from('moderation_appeals')
      .insert({ user_id: user.id, sanction_id: sanction, statement, due_at: 'now()' });
    expect(forged.error).not.toBeNull();

    const filed = await as(user).rpc('file_appeal', {
      p_statement: statement,
      p_sanction: sanction,
    });
    expect(filed.error).toBeNull();
    const appeal = filed.data as { id: string; due_at: string; created_at: string };
    // 7 business days: 9 to 11 calendar days, never ending on a weekend.
    const days = (Date.parse(appeal.due_at) - Date.parse(appeal.created_at)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(9);
    expect(days).toBeLessThanOrEqual(11);
    expect([0, 6]).not.toContain(new Date(appeal.due_at).getUTCDay());

    const again = await as(user).rpc('file_appeal', {
      p_statement: statement,
      p_sanction: sanction,
    });
    expect(again.error?.message).toMatch(/already been appealed/);
    // The appellant and admins read it; nobody else.
    expect((await as(user).from('moderation_appeals').select('id')).data).toEqual([
      { id: appeal.id },
    ]);
    expect(
      (await as(stranger).from('moderation_appeals').select('id').eq('id', appeal.id)).data,
    ).toEqual([]);
    expect((await queue({ p_kind: 'appeal' })).map((r) => r.id)).toContain(appeal.id);

    // Another warning, 31 days old: too late.
    const old = await warn(user.id);
    const oldId = (old.data as { id: string }).id;
    await t.db.query(
      `update public.account_sanctions set created_at = now() - interval '31 days' where id = $1`,
      [oldId],
    );
    const late = await as(user).rpc('file_appeal', { p_statement: statement, p_sanction: oldId });
    expect(late.error?.message).toMatch(/30 days/);
    // 29 days: still in time.
    await t.db.query(
      `update public.account_sanctions set created_at = now() - interval '29 days' where id = $1`,
      [oldId],
    );
    expect(
      (await as(user).rpc('file_appeal', { p_statement: statement, p_sanction: oldId })).error,
    ).toBeNull();
  });

  it('a suspended user appeals; only admins answer; overturning lifts the suspension; all mailed', async () => {
    const user = await createUser(t.db);
    const made = await admin().rpc('admin_sanction_user', {
      p_user: user.id,
      p_kind: 'suspension',
      p_reason: 'Spam uploads.',
      p_days: 7,
    });
    expect(made.error).toBeNull();
    const sanction = (made.data as { id: string }).id;
    const filed = await as(user).rpc('file_appeal', {
      p_statement: 'Those were my own remixes, not spam.',
      p_sanction: sanction,
    });
    expect(filed.error).toBeNull();
    const appeal = (filed.data as { id: string }).id;

    const answer = { p_appeal: appeal, p_decision: 'overturn', p_reason: 'They are originals.' };
    for (const who of [anon(), as(user), as(w.owner)]) {
      expect((await who.rpc('admin_answer_appeal', answer)).error).not.toBeNull();
    }
    expect(
      (await admin().rpc('admin_answer_appeal', { ...answer, p_decision: 'maybe' })).error,
    ).not.toBeNull();
    const answered = await admin().rpc('admin_answer_appeal', answer);
    expect(answered.error).toBeNull();
    expect(answered.data).toMatchObject({ status: 'overturned', answered_by: w.admin.id });
    expect((await anon().rpc('suspended_until', { p_user: user.id })).data).toBeNull();
    expect((await admin().rpc('admin_answer_appeal', answer)).error?.message).toMatch(
      /already been answered/,
    );

    const audit = await t.db.query<{ action: string; actor_id: string }>(
      `select action, actor_id from public.admin_audit_log
       where target_id = any ($1::text[]) order by id`,
      [[sanction, appeal]],
    );
    expect(audit.rows).toEqual([
      { action: 'account.suspension', actor_id: w.admin.id },
      { action: 'appeal.file', actor_id: user.id },
      { action: 'account.lift_suspension', actor_id: w.admin.id },
      { action: 'appeal.overturn', actor_id: w.admin.id },
    ]);
    const subjects = (await mails(user.email)).map((m) => m.subject);
    expect(subjects[0]).toMatch(/^Your Soundloft account is suspended until \d+ \w+ \d{4}, /);
    expect(subjects.slice(1)).toEqual([
      'We received your appeal',
      'Your Soundloft suspension has been lifted',
      'Your appeal was successful',
    ]);
  });

  it('the removal of a track is appealed by its uploader and restored when overturned', async () => {
    const uploader = await createUser(t.db);
    const r = await report(uploader, w.other);
    expect(
      (await admin().rpc('resolve_track_report', { report_id: r.report, action: 'take_down' }))
        .error,
    ).toBeNull();
    const statement = 'This is my own recording; I hold every right to it.';
    expect(
      (await as(w.other).rpc('file_appeal', { p_statement: statement, p_track: r.track })).error,
    ).not.toBeNull();
    const filed = await as(uploader).rpc('file_appeal', {
      p_statement: statement,
      p_track: r.track,
    });
    expect(filed.error).toBeNull();
    const upheld = await admin().rpc('admin_answer_appeal', {
      p_appeal: (filed.data as { id: string }).id,
      p_decision: 'uphold',
      p_reason: 'The lyrics break the guidelines.',
    });
    expect(upheld.error).toBeNull();
    const down = await t.db.query(
      `select 1 from public.tracks where id = $1 and taken_down_at is not null`,
      [r.track],
    );
    expect(down.rows).toHaveLength(1);
    expect((await mails(uploader.email)).map((m) => m.subject)).toEqual([
      'Your track "A track" has been removed',
      'We received your appeal',
      'Your appeal was rejected',
    ]);

    // A second removal (after a restore) is a new decision: appealed and overturned.
    await t.db.query(`update public.tracks set taken_down_at = null where id = $1;`, [r.track]);
    const r2 = await as(w.owner)
      .from('track_reports')
      .insert({ track_id: r.track, reason: 'spam' })
      .select('id')
      .single();
    const report2 = (r2.data as { id: string }).id;
    await admin().rpc('resolve_track_report', { report_id: report2, action: 'take_down' });
    const filed2 = await as(uploader).rpc('file_appeal', {
      p_statement: statement,
      p_track: r.track,
    });
    expect(filed2.error).toBeNull();
    const overturned = await admin().rpc('admin_answer_appeal', {
      p_appeal: (filed2.data as { id: string }).id,
      p_decision: 'overturn',
      p_reason: 'Not spam.',
    });
    expect(overturned.error).toBeNull();
    expect((await anon().from('tracks').select('id').eq('id', r.track)).data).toEqual([
      { id: r.track },
    ]);
  });
});
