/**
 * The copyright notice and counter-notice flow (docs/trust-and-safety.md), with the official
 * supabase-js client and plain HTTP against the real backend: the public form validated and
 * rate-limited by the server, the acknowledgement mailed at once; only an admin removes,
 * rejects, restores or records a legal action (anon, the uploader and another user are
 * refused); a removed track is gone for everyone but its uploader and admins and earns nothing;
 * only the uploader counter-notifies; the deadlines apply when the test clock (app_clock) moves
 * past them, never by sleeping; every step is in the admin audit log. Business days: unit cases.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { copyrightTick } from '../../server/copyright';
import { createUser, type TestUser } from '../../server/db/test-factories';
import { makeWav, synthSignal } from '../../server/processing/test-fixtures';
import { refuseTestClock } from '../../server/production-check';
import type { StoredMail } from '../../server/mail';
import { COUNTER_NOTICE } from './expectations/inputs';
import { startTarget, type Target } from './support/target';
import { buildWorld, type World } from './support/world';

let t: Target;
let w: World;
let n = 0;

beforeAll(async () => {
  t = await startTarget();
  w = await buildWorld(t.db);
});
afterAll(async () => {
  await t?.db.query(`update public.app_clock_offset set offset_by = '0' where id`);
  await t?.close();
});

const options = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as never },
};
/** Each test starts with the notice form's rate limits free (they are tested on their own). */
const resetLimits = () =>
  t.db.query(`delete from auth.rate_limits where key like 'copyright_notice:%'`);
beforeEach(async () => {
  await resetLimits();
});
const asToken = (token: string) =>
  createClient(t.url, t.keys.anonKey, {
    ...options,
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
const anon = () => createClient(t.url, t.keys.anonKey, options);
const admin = () => asToken(t.token(w.admin));
const owner = () => asToken(t.token(w.owner));
const other = () => asToken(t.token(w.other));

/** A fresh ready track of the owner's (the uploader of every notice here). */
async function ownersTrack(): Promise<string> {
  return w.freshTrack(w.owner);
}

function notice(tracks: string[], email: string, extra: Record<string, unknown> = {}) {
  return {
    claimantName: 'Clara Claimant',
    email,
    address: '1 Rights Road, Nashville',
    phone: '+1 555 0100',
    work: 'The song "Night Drive" (2024), written and recorded by Clara Claimant.',
    trackUrls: tracks.map((id) => `https://soundloft.example/track/${id}`),
    goodFaith: true,
    accuracy: true,
    signature: 'Clara Claimant',
    ...extra,
  };
}

async function submit(body: unknown, ip = '203.0.113.7') {
  const res = await fetch(`${t.url}/functions/v1/copyright-notice`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: t.keys.anonKey, 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const claimant = () => `claimant-${++n}-${Date.now()}@rights.test`;

/** The newest dev-mailbox message to `to` whose subject matches (the job loop sends it). */
async function mailTo(to: string, subject: RegExp): Promise<StoredMail> {
  let found: StoredMail | undefined;
  for (let i = 0; i < 600 && !found; i++) {
    found = t.backend.mailer.list().find((m) => m.to === to && subject.test(m.subject));
    if (!found) await new Promise((r) => setTimeout(r, 100));
  }
  if (!found) throw new Error(`no mail "${subject.source}" to ${to}`);
  return found;
}

async function noticeRow(id: string) {
  const { rows } = await t.db.query<Record<string, unknown>>(
    `select status, removal_due, restore_due, acknowledged_at, removed_at, restored_at,
            legal_action_at from public.copyright_notices where id = $1`,
    [id],
  );
  return rows[0]!;
}

async function moveClockDays(days: number) {
  await t.db.query(
    `update public.app_clock_offset set offset_by = offset_by + make_interval(days => $1) where id`,
    [days],
  );
}

/** Moves the test clock to `seconds` after the notice's deadline (negative: before it). */
async function moveClockTo(id: string, due: 'removal_due' | 'restore_due', seconds: number) {
  await t.db.query(
    `update public.app_clock_offset o
        set offset_by = o.offset_by + (n.${due} - public.app_clock()) + make_interval(secs => $2)
       from public.copyright_notices n where o.id and n.id = $1`,
    [id, seconds],
  );
}

async function audit(id: string): Promise<string[]> {
  const { rows } = await t.db.query<{ action: string }>(
    `select action from public.admin_audit_log where target_table = 'copyright_notices'
       and target_id = $1 order by id`,
    [id],
  );
  return rows.map((r) => r.action);
}

async function visibleTo(client: SupabaseClient, track: string): Promise<boolean> {
  const { data, error } = await client.from('tracks').select('id').eq('id', track);
  expect(error).toBeNull();
  return (data ?? []).length === 1;
}

/**
 * The owner's strikes in this file climb the ladder (copyright-strikes.test.ts tests it): an
 * admin lifts what stands, for the steps that need the owner free to upload or counter-notify.
 */
async function liftOwnersSanctions() {
  const standing = await t.db.query<{ id: string }>(
    `select id from public.account_sanctions where user_id = $1 and lifted_at is null`,
    [w.owner.id],
  );
  for (const s of standing.rows) {
    const lift = await admin().rpc('admin_lift_sanction', { p_sanction: s.id, p_reason: 'Test.' });
    expect(lift.error).toBeNull();
  }
}

/** The owner's counter-notice to notice `id`, signed in. */
async function counterNotify(id: string) {
  await liftOwnersSanctions();
  return owner().rpc('copyright_counter_notify', { ...COUNTER_NOTICE.sane, p_notice: id });
}

const refused = (r: { error: { code?: string } | null }) =>
  expect(r.error?.code, JSON.stringify(r.error)).toBe('42501');

describe('business days', () => {
  const add = async (from: string, days: number) => {
    const { rows } = await t.db.query<{ d: string }>(
      `select to_char(public.add_business_days($1::timestamptz, $2) at time zone 'UTC',
                      'Dy YYYY-MM-DD HH24:MI') as d`,
      [from, days],
    );
    return rows[0]!.d;
  };

  it('skips weekends and US federal holidays, keeps the time of day', async () => {
    expect(await add('2026-12-04 10:30Z', 1)).toBe('Mon 2026-12-07 10:30'); // Fri → Mon
    expect(await add('2026-12-05 10:30Z', 5)).toBe('Fri 2026-12-11 10:30'); // from a Saturday
    expect(await add('2026-12-07 00:00Z', 10)).toBe('Mon 2026-12-21 00:00');
    expect(await add('2026-11-25 09:00Z', 1)).toBe('Fri 2026-11-27 09:00'); // Thanksgiving
    expect(await add('2026-12-24 09:00Z', 1)).toBe('Mon 2026-12-28 09:00'); // Christmas, weekend
    expect(await add('2026-12-31 09:00Z', 1)).toBe('Mon 2027-01-04 09:00'); // New Year's Day
    expect(await add('2026-12-07 12:00Z', 0)).toBe('Mon 2026-12-07 12:00');
    await expect(add('2026-12-07 12:00Z', -1)).rejects.toThrow(/forward/);
  });

  it('counts weekends only past the last covered year (the rule of docs § Business days)', async () => {
    const { rows } = await t.db.query<{ last: number }>(
      'select max(extract(year from day))::int as last from public.business_holidays',
    );
    expect(rows[0]!.last).toBe(2028);
    // Independence Day is skipped in 2028 (a covered year), counted in 2029 (not covered).
    expect(await add('2028-07-03 09:00Z', 1)).toBe('Wed 2028-07-05 09:00');
    expect(await add('2029-07-03 09:00Z', 1)).toBe('Wed 2029-07-04 09:00');
    // A span across the end of coverage: Christmas 2028 skipped, New Year's Day 2029 counted.
    expect(await add('2028-12-22 09:00Z', 1)).toBe('Tue 2028-12-26 09:00');
    expect(await add('2028-12-29 09:00Z', 1)).toBe('Mon 2029-01-01 09:00');
  });
});

describe('the notice form', () => {
  it('validates on the server and names the problem', async () => {
    const track = await ownersTrack();
    const email = claimant();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ goodFaith: false }, /good faith/],
      [{ accuracy: undefined }, /accuracy/],
      [{ signature: '  ' }, /Sign/],
      [{ email: 'not-an-address' }, /email/],
      [{ trackUrls: [] }, /at least one track/],
      [{ trackUrls: ['https://elsewhere.example/song'] }, /Not a Soundloft track link/],
      [{ trackUrls: [`/track/${crypto.randomUUID()}`] }, /does not exist/],
      [{ admin: true }, /Unknown field/],
    ];
    for (const [change, message] of cases) {
      const r = await submit(notice([track], email, change));
      expect(r.status, JSON.stringify(change)).toBe(400);
      expect(String(r.body.error)).toMatch(message);
    }
    const { rows } = await t.db.query(
      `select 1 from public.copyright_notice_contacts where email = $1`,
      [email],
    );
    expect(rows).toHaveLength(0);
  });

  it('rate-limits per claimant address and per client IP in Postgres', async () => {
    const track = await ownersTrack();
    // Per IP: the relay names the socket's address, not the X-Forwarded-For a client forges.
    for (let i = 0; i < 10; i++) {
      expect((await submit(notice([track], claimant()), `198.51.100.${i + 1}`)).status).toBe(201);
    }
    const over = await submit(notice([track], claimant()), '198.51.100.99');
    expect(over.status).toBe(429);
    expect(String(over.body.error)).toMatch(/Too many notices/);
    const { rows } = await t.db.query<{ key: string }>(
      `select key from auth.rate_limits where key like 'copyright_notice:ip:%'`,
    );
    expect(rows.map((r) => r.key)).toEqual([expect.not.stringMatching(/198\.51\.100/)]);
    // Per claimant address: 10, then refused even once the IP's hits are gone.
    await resetLimits();
    const email = claimant();
    for (let i = 0; i < 10; i++) {
      expect((await submit(notice([track], email))).status).toBe(201);
    }
    await t.db.query(`delete from auth.rate_limits where key like 'copyright_notice:ip:%'`);
    expect((await submit(notice([track], email))).status).toBe(429);
    expect((await submit(notice([track], claimant()))).status).toBe(201);
  });

  it('makes one notice per uploader, acknowledges it by mail at once', async () => {
    const mine = [await ownersTrack(), await ownersTrack()];
    const theirs = await w.freshTrack(w.other);
    const email = claimant();
    const r = await submit(notice([...mine, theirs], email), '192.0.2.1');
    expect(r.status).toBe(201);
    const ids = r.body.noticeIds as string[];
    expect(ids).toHaveLength(2);
    const mail = await mailTo(email, /We received your copyright notice/);
    expect(mail.text).toContain(ids[0]);
    expect(mail.text).toMatch(/5 business days/);
    for (const id of ids) {
      let row = await noticeRow(id);
      for (let i = 0; i < 100 && row.status !== 'acknowledged'; i++) {
        await new Promise((res) => setTimeout(res, 100));
        row = await noticeRow(id);
      }
      expect(row.status).toBe('acknowledged');
      expect(await audit(id)).toEqual(['copyright.notice_received', 'copyright.acknowledge']);
    }
    const { rows } = await t.db.query<{ n: number }>(
      `select cardinality(track_ids) as n from public.copyright_notices where id = any ($1::uuid[])
        order by n`,
      [ids],
    );
    expect(rows.map((x) => x.n)).toEqual([1, 2]);
  });
});

describe('removal, counter-notice and restoration', () => {
  let track: string;
  let id: string;
  let email: string;

  beforeAll(async () => {
    track = await ownersTrack();
    email = claimant();
    const r = await submit(notice([track], email), '192.0.2.2');
    expect(r.status).toBe(201);
    id = (r.body.noticeIds as string[])[0]!;
    await mailTo(email, /We received your copyright notice/);
  });

  it('lets the uploader read the notice but never the claimant contact; nobody else', async () => {
    const own = await owner().from('copyright_notices').select('id, claimant_name').eq('id', id);
    expect(own.data).toEqual([{ id, claimant_name: 'Clara Claimant' }]);
    const contact = await owner().from('copyright_notice_contacts').select('*').eq('notice_id', id);
    expect(contact.data).toEqual([]);
    expect((await other().from('copyright_notices').select('id').eq('id', id)).data).toEqual([]);
    expect((await anon().from('copyright_notices').select('id').eq('id', id)).error).not.toBeNull();
    const adm = await admin().from('copyright_notice_contacts').select('email').eq('notice_id', id);
    expect(adm.data).toEqual([{ email }]);
  });

  it('lets only an admin remove', async () => {
    const args = { p_notice: id, p_reason: 'Valid notice.' };
    expect((await anon().rpc('copyright_remove', args)).error).not.toBeNull();
    refused(await owner().rpc('copyright_remove', args));
    refused(await other().rpc('copyright_remove', args));
    refused(await other().rpc('copyright_restore', args));
    refused(await owner().rpc('copyright_reject', args));
    refused(await owner().rpc('copyright_record_legal_action', args));
    expect((await noticeRow(id)).status).not.toBe('removed');
    expect(await visibleTo(other(), track)).toBe(true);

    const removed = await admin().rpc('copyright_remove', args);
    expect(removed.error).toBeNull();
    expect((await noticeRow(id)).status).toBe('removed');
    expect((await admin().rpc('copyright_remove', args)).error?.message).toMatch(/not yet decided/);
  });

  it('hides the removed track from everyone but its uploader and admins; it earns nothing', async () => {
    expect(await visibleTo(other(), track)).toBe(false);
    expect(await visibleTo(anon(), track)).toBe(false);
    expect(await visibleTo(owner(), track)).toBe(true);
    expect(await visibleTo(admin(), track)).toBe(true);
    const before = await t.db.query<{ plays: number }>(
      'select plays from public.tracks where id = $1',
      [track],
    );
    await other().rpc('increment_track_plays', { track_id: track, session_id: `s-${id}` });
    const after = await t.db.query<{ plays: number }>(
      'select plays from public.tracks where id = $1',
      [track],
    );
    expect(after.rows[0]!.plays).toBe(before.rows[0]!.plays);
    const tomb = await t.db.query(
      `select 1 from public.sync_deletions where table_name = 'tracks' and row_key = $1`,
      [track],
    );
    expect(tomb.rows.length).toBeGreaterThan(0);
  });

  it('strikes the uploader and tells them without the claimant contact', async () => {
    expect((await owner().rpc('copyright_strike_count', { p_user: w.owner.id })).data).toBe(
      Number(
        (
          await t.db.query<{ n: number }>(
            `select count(*)::int as n from public.copyright_strikes where user_id = $1 and lifted_at is null`,
            [w.owner.id],
          )
        ).rows[0]!.n,
      ),
    );
    expect((await other().rpc('copyright_strike_count', { p_user: w.owner.id })).data).toBeNull();
    const { rows } = await t.db.query(
      `select 1 from public.copyright_strikes where notice_id = $1 and lifted_at is null`,
      [id],
    );
    expect(rows).toHaveLength(1);
    const mail = await mailTo(w.owner.email, /removed after a copyright notice/);
    expect(mail.text).toContain('Night Drive');
    expect(mail.text).toContain('Clara Claimant');
    expect(mail.text).not.toContain(email);
    expect(mail.text).not.toContain('Rights Road');
    expect(mail.text).not.toContain('555 0100');
    expect(mail.links.some((l) => l.endsWith(`/copyright/counter/${id}`))).toBe(true);
  });

  it('takes a counter-notice from the uploader only, and forwards it', async () => {
    const counter = {
      p_notice: id,
      p_full_name: 'Owen Owner',
      p_address: '2 Studio Lane, Berlin',
      p_phone: '',
      p_email: 'owen@owner.test',
      p_explanation: 'I wrote and recorded this track myself.',
      p_good_faith_mistake: true,
      p_consent_to_jurisdiction: true,
      p_signature: 'Owen Owner',
    };
    expect((await anon().rpc('copyright_counter_notify', counter)).error).not.toBeNull();
    expect((await other().rpc('copyright_counter_notify', counter)).error?.message).toMatch(
      /No such notice/,
    );
    expect(
      (
        await owner().rpc('copyright_counter_notify', {
          ...counter,
          p_consent_to_jurisdiction: false,
        })
      ).error?.message,
    ).toMatch(/statements are required/);
    const ok = await owner().rpc('copyright_counter_notify', counter);
    expect(ok.error).toBeNull();
    const row = await noticeRow(id);
    expect(row.status).toBe('counter_noticed');
    const { rows } = await t.db.query<{ due: Date }>(
      `select public.add_business_days(counter_at, 10) as due from public.copyright_notices where id = $1`,
      [id],
    );
    expect(row.restore_due).toEqual(rows[0]!.due);
    expect((await owner().rpc('copyright_counter_notify', counter)).error?.message).toMatch(/once/);
    const mail = await mailTo(email, /counter-notice to your copyright notice/);
    expect(mail.text).toContain('2 Studio Lane, Berlin');
    expect(mail.text).toContain('I wrote and recorded this track myself.');
  });

  it('restores after 10 business days on the test clock, not before', async () => {
    await moveClockTo(id, 'restore_due', -60);
    await copyrightTick(t.db);
    expect((await noticeRow(id)).status).toBe('counter_noticed');
    await moveClockTo(id, 'restore_due', 1);
    // Two nodes' ticks at once (and the server's own loop): applied once.
    await Promise.all([copyrightTick(t.db), copyrightTick(t.db)]);
    const row = await noticeRow(id);
    expect(row.status).toBe('restored');
    expect(await visibleTo(other(), track)).toBe(true);
    const { rows } = await t.db.query(
      `select 1 from public.copyright_strikes where notice_id = $1 and lifted_at is not null`,
      [id],
    );
    expect(rows).toHaveLength(1);
    await mailTo(w.owner.email, /Your track is back/);
    await mailTo(email, /were restored/);
    expect(await audit(id)).toEqual([
      'copyright.notice_received',
      'copyright.acknowledge',
      'copyright.remove',
      'copyright.counter_notice',
      'copyright.restore',
    ]);
    const who = await t.db.query<{ actor_id: string | null; reason: string }>(
      `select actor_id, after ->> 'reason' as reason from public.admin_audit_log
        where target_id = $1 and action = 'copyright.remove'`,
      [id],
    );
    expect(who.rows[0]).toEqual({ actor_id: w.admin.id, reason: 'Valid notice.' });
  });
});

describe('audio handed out before a removal', () => {
  /** Signs the object as `who` (as the player does) and returns the URL. */
  async function signedUrl(who: TestUser, path: string): Promise<string> {
    const signed = await t.request('POST', `/storage/v1/object/sign/tracks/${path}`, {
      as: who,
      body: JSON.stringify({ expiresIn: 3600 }),
    });
    expect(signed.status, signed.body).toBe(200);
    return `${t.url}/storage/v1${(JSON.parse(signed.body) as { signedURL: string }).signedURL}`;
  }

  it('refuses a signed URL minted before the removal; the offline check ends the download', async () => {
    await liftOwnersSanctions();
    const path = `${w.owner.id}/${randomUUID()}.wav`;
    const wav = makeWav(synthSignal(1, { sampleRate: 8000, channels: 1 }));
    const up = await t.request('POST', `/storage/v1/object/tracks/${path}`, {
      as: w.owner,
      body: new Uint8Array(wav),
      headers: { 'Content-Type': 'audio/wav' },
    });
    expect(up.status, up.body).toBe(200);
    const track = (
      await t.db.query<{ id: string }>(
        `insert into public.tracks (title, artist, duration, audio_url, uploaded_by, status)
         values ('Signed', 'Owner', 1, $1, $2, 'ready') returning id`,
        [`tracks/${path}`, w.owner.id],
      )
    ).rows[0]!.id;
    // A listener whose plan keeps offline downloads, with this track downloaded on a device.
    const listener = await createUser(t.db, { established: true });
    await t.db.query(`update public.profiles set subscription_plan = 'premium' where id = $1`, [
      listener.id,
    ]);
    await t.db.query(
      `insert into public.track_downloads (user_id, track_id, device_id, object, valid_until)
       values ($1, $2, 'phone', $3, now() + interval '30 days')`,
      [listener.id, track, `tracks/${path}`],
    );
    const listenersUrl = await signedUrl(listener, path);
    const ownersUrl = await signedUrl(w.owner, path);
    expect((await fetch(listenersUrl)).status).toBe(200);
    const renew = () =>
      asToken(t.token(listener)).rpc('renew_track_downloads', { device_id: 'phone' });
    expect(((await renew()).data ?? []).map((d: { track_id: string }) => d.track_id)).toEqual([
      track,
    ]);

    const r = await submit(notice([track], claimant()), '192.0.2.9');
    const id = (r.body.noticeIds as string[])[0]!;
    expect(
      (await admin().rpc('copyright_remove', { p_notice: id, p_reason: 'ok' })).error,
    ).toBeNull();

    // The URL minted before the removal, still within its hour, is refused; a new one too.
    // (Storage answers a missing object 400 with statusCode 404, as Supabase Storage does.)
    const after = await fetch(listenersUrl);
    expect(after.status).toBe(400);
    expect(await after.text()).toMatch(/"statusCode":"404".*Object not found/);
    const again = await t.request('POST', `/storage/v1/object/sign/tracks/${path}`, {
      as: listener,
      body: JSON.stringify({ expiresIn: 3600 }),
    });
    expect(again.status).not.toBe(200);
    // The uploader still hears their own track (to prepare a counter-notice).
    expect((await fetch(ownersUrl)).status).toBe(200);
    // The offline client's next check: the download is ended.
    const renewed = await renew();
    expect(renewed.error).toBeNull();
    expect(renewed.data).toEqual([]);
    const rows = await t.db.query(
      'select 1 from public.track_downloads where user_id = $1 and track_id = $2',
      [listener.id, track],
    );
    expect(rows.rows).toEqual([]);
  });
});

describe("the claimant's legal-action link", () => {
  /** A removed, counter-noticed notice; the claimant's link token, read from the mail. */
  async function counterNoticed(ip: string): Promise<{ id: string; token: string }> {
    const track = await ownersTrack();
    const email = claimant();
    const r = await submit(notice([track], email), ip);
    const id = (r.body.noticeIds as string[])[0]!;
    expect(
      (await admin().rpc('copyright_remove', { p_notice: id, p_reason: 'ok' })).error,
    ).toBeNull();
    expect((await counterNotify(id)).error).toBeNull();
    const mail = await mailTo(email, /counter-notice to your copyright notice/);
    const link = mail.links.find((l) => l.startsWith(`${t.url}/copyright/legal-action#`));
    expect(link, mail.text).toBeDefined();
    return { id, token: link!.split('#')[1]! };
  }

  const record = (token: string, extra: Record<string, unknown> = {}) =>
    anon().rpc('copyright_claimant_record_legal_action', {
      p_token: token,
      p_court: 'U.S. District Court, S.D.N.Y.',
      p_case_reference: '1:26-cv-01234',
      p_statement: 'We filed a complaint for copyright infringement against the uploader.',
      p_confirmed: true,
      p_signature: 'Clara Claimant',
      ...extra,
    });
  const invalid = /not valid: it may have expired or already been used/;

  it('records the action once, without an account; the token is stored hashed only', async () => {
    const { id, token } = await counterNoticed('192.0.2.20');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const stored = await t.db.query<{ matches: boolean; n: number }>(
      `select bool_and(token_hash = sha256(convert_to($2, 'UTF8'))) as matches, count(*)::int as n
         from public.action_links where notice_id = $1 and purpose = 'legal_action'`,
      [id, token],
    );
    expect(stored.rows[0]).toEqual({ matches: true, n: 1 });
    // The sent mail's row keeps no token (once the sender has marked it sent).
    let sent: { params: string }[] = [];
    for (let i = 0; i < 600 && sent.length === 0; i++) {
      sent = (
        await t.db.query<{ params: string }>(
          `select params::text as params from public.mail_outbox
            where template = 'copyright_counter_notice' and params ->> 'notice_id' = $1
              and sent_at is not null`,
          [id],
        )
      ).rows;
      if (sent.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(sent).toHaveLength(1);
    expect(sent[0]!.params).not.toContain(token);
    const info = await anon().rpc('copyright_claimant_legal_action_info', { p_token: token });
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({ notice_id: id, claimant_name: 'Clara Claimant' });
    // Validated on the server: the confirmation and the signature are required.
    expect((await record(token, { p_confirmed: false })).error?.message).toMatch(/Confirm/);
    expect((await record(token, { p_signature: ' ' })).error?.message).toMatch(/Sign/);
    expect((await record(token)).error).toBeNull();
    const row = await noticeRow(id);
    expect(row.status).toBe('legal_action');
    const by = await t.db.query<{ legal_action_by: string; decision_reason: string }>(
      'select legal_action_by, decision_reason from public.copyright_notices where id = $1',
      [id],
    );
    expect(by.rows[0]!.legal_action_by).toBe('claimant');
    expect(by.rows[0]!.decision_reason).toMatch(/Recorded by the claimant: .*1:26-cv-01234/);
    const audited = await t.db.query<{ actor_id: string | null; after: Record<string, unknown> }>(
      `select actor_id, after from public.admin_audit_log
        where target_id = $1 and action = 'copyright.legal_action'`,
      [id],
    );
    expect(audited.rows).toHaveLength(1);
    expect(audited.rows[0]!.actor_id).toBeNull();
    expect(audited.rows[0]!.after).toMatchObject({
      by: 'claimant',
      case_reference: '1:26-cv-01234',
    });
    await mailTo(w.owner.email, /stays removed/);
    // Used: refused, for recording and for reading.
    expect((await record(token)).error?.message).toMatch(invalid);
    expect(
      (await anon().rpc('copyright_claimant_legal_action_info', { p_token: token })).error?.message,
    ).toMatch(invalid);
    // The deadline passes: the notice stays removed.
    await moveClockTo(id, 'restore_due', 60);
    await copyrightTick(t.db);
    expect((await noticeRow(id)).status).toBe('legal_action');
    await t.db.query(`update public.app_clock_offset set offset_by = '0' where id`);
  });

  it('refuses a wrong, malformed or expired token', async () => {
    const { id, token } = await counterNoticed('192.0.2.21');
    const wrong = token.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    for (const bad of [wrong, 'x'.repeat(64), token.toUpperCase(), '', token + '0']) {
      expect((await record(bad)).error?.message, bad).toMatch(invalid);
    }
    // A second before the end it still opens; at the end it is refused.
    await moveClockTo(id, 'restore_due', -1);
    expect(
      (await anon().rpc('copyright_claimant_legal_action_info', { p_token: token })).error,
    ).toBeNull();
    await moveClockTo(id, 'restore_due', 1);
    expect((await record(token)).error?.message).toMatch(invalid);
    // Not recorded; the target's own deadline job (every 2 s) may already have restored it.
    expect(['counter_noticed', 'restored']).toContain((await noticeRow(id)).status);
    await copyrightTick(t.db);
    expect((await noticeRow(id)).status).toBe('restored');
    await t.db.query(`update public.app_clock_offset set offset_by = '0' where id`);
  });
});

describe('deadlines and legal action', () => {
  it('removes a notice nobody rejected when removal_due passes', async () => {
    const track = await ownersTrack();
    const r = await submit(notice([track], claimant()), '192.0.2.3');
    const id = (r.body.noticeIds as string[])[0]!;
    await moveClockTo(id, 'removal_due', -60);
    await copyrightTick(t.db);
    expect(['received', 'acknowledged']).toContain((await noticeRow(id)).status);
    await moveClockTo(id, 'removal_due', 1);
    await copyrightTick(t.db);
    expect((await noticeRow(id)).status).toBe('removed');
    expect(await visibleTo(other(), track)).toBe(false);
    const { rows } = await t.db.query<{ actor_id: string | null }>(
      `select actor_id from public.admin_audit_log where target_id = $1 and action = 'copyright.remove'`,
      [id],
    );
    expect(rows).toEqual([{ actor_id: null }]);
  });

  it('keeps the track removed once an admin records a legal action in time', async () => {
    const track = await ownersTrack();
    const r = await submit(notice([track], claimant()), '192.0.2.4');
    const id = (r.body.noticeIds as string[])[0]!;
    expect(
      (await admin().rpc('copyright_remove', { p_notice: id, p_reason: 'ok' })).error,
    ).toBeNull();
    expect((await counterNotify(id)).error).toBeNull();
    refused(await owner().rpc('copyright_record_legal_action', { p_notice: id, p_reason: 'x' }));
    const legal = await admin().rpc('copyright_record_legal_action', {
      p_notice: id,
      p_reason: 'Claimant filed case 1:26-cv-01234 (S.D.N.Y.).',
    });
    expect(legal.error).toBeNull();
    await moveClockDays(20);
    await copyrightTick(t.db);
    expect((await noticeRow(id)).status).toBe('legal_action');
    expect(await visibleTo(other(), track)).toBe(false);
    await mailTo(w.owner.email, /stays removed/);
  });

  it('lets an admin reject a notice; nothing is removed and the claimant is told', async () => {
    const track = await ownersTrack();
    const email = claimant();
    const r = await submit(notice([track], email), '192.0.2.5');
    const id = (r.body.noticeIds as string[])[0]!;
    const rejected = await admin().rpc('copyright_reject', {
      p_notice: id,
      p_reason: 'The work described is in the public domain.',
    });
    expect(rejected.error).toBeNull();
    await moveClockDays(10);
    await copyrightTick(t.db);
    expect((await noticeRow(id)).status).toBe('rejected');
    expect(await visibleTo(other(), track)).toBe(true);
    const mail = await mailTo(email, /not accepted/);
    expect(mail.text).toContain('public domain');
  });

  it('makes a production start refuse a moved test clock', async () => {
    await moveClockDays(1);
    await expect(refuseTestClock(t.db)).rejects.toThrow(/test clock is moved/);
    await t.db.query(`update public.app_clock_offset set offset_by = '0' where id`);
    await expect(refuseTestClock(t.db)).resolves.toBeUndefined();
  });

  it('refuses the test clock and the mail outbox to every API role', async () => {
    for (const client of [anon(), owner(), admin()]) {
      const r = await client
        .from('app_clock_offset')
        .update({ offset_by: '1 year' })
        .eq('id', true);
      expect(r.error).not.toBeNull();
      expect((await client.rpc('copyright_tick')).error).not.toBeNull();
    }
  });
});
