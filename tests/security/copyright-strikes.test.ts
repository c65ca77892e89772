/**
 * Repeat infringers (docs/trust-and-safety.md § Repeat infringers, § Action links), with the
 * official supabase-js client against the real backend: each removed notice is a strike that
 * applies the ladder by itself (1 → warning, 2 → suspension of 14 days that ends by itself when
 * the test clock passes it, 3 → ban); a restoration lifts the sanction its strike caused; two
 * removals at once make a warning and a suspension, never two of one; the mailed links let a
 * banned uploader counter-notify and appeal without signing in, for that notice or decision
 * only, once, until they expire, while the account stays unable to sign in or use REST.
 */
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMail } from '../../server/mail';
import { claimsFor, createTrack } from '../../server/db/test-factories';
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
afterAll(async () => {
  await t?.db.query(`update public.app_clock_offset set offset_by = '0' where id`);
  await t?.close();
});

const anon = () => createClient(t.url, t.keys.anonKey, options);
const asToken = (token: string) =>
  createClient(t.url, t.keys.anonKey, {
    ...options,
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
const admin = () => asToken(t.token(w.admin));

type Uploader = Member;
const uploader = () => signedInMember(t, 'strikes');

async function trackOf(u: Uploader): Promise<string> {
  return (
    await createTrack(t.db, {
      id: u.id,
      email: u.email,
      name: 'U',
      claims: claimsFor(u.id, u.email),
    })
  ).id;
}

/** A notice against `track` through the public form; its id. */
async function noticeAgainst(track: string): Promise<string> {
  await t.db.query(`delete from auth.rate_limits where key like 'copyright_notice:%'`);
  const res = await fetch(`${t.url}/functions/v1/copyright-notice`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: t.keys.anonKey },
    body: JSON.stringify({
      claimantName: 'Clara Claimant',
      email: `claimant-${++n}@rights.test`,
      work: 'The song "Night Drive" (2024).',
      trackUrls: [`https://soundloft.example/track/${track}`],
      goodFaith: true,
      accuracy: true,
      signature: 'Clara Claimant',
    }),
  });
  const body = (await res.json()) as { noticeIds: string[] };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.noticeIds[0]!;
}

async function removeNotice(id: string) {
  const r = await admin().rpc('copyright_remove', { p_notice: id, p_reason: 'Valid notice.' });
  expect(r.error).toBeNull();
}

async function sanctions(user: string) {
  const { rows } = await t.db.query<{
    id: string;
    kind: string;
    days: number | null;
    lifted: boolean;
    strike: string | null;
  }>(
    `select s.id, s.kind, extract(day from s.ends_at - s.starts_at)::int as days,
            s.lifted_at is not null as lifted, s.copyright_strike_id as strike
       from public.account_sanctions s where s.user_id = $1 order by s.created_at, s.kind`,
    [user],
  );
  return rows;
}

async function mailTo(to: string, subject: RegExp): Promise<StoredMail> {
  let found: StoredMail | undefined;
  for (let i = 0; i < 600 && !found; i++) {
    found = t.backend.mailer
      .list()
      .filter((m) => m.to === to && subject.test(m.subject))
      .at(-1);
    if (!found) await new Promise((r) => setTimeout(r, 100));
  }
  if (!found) throw new Error(`no mail "${subject.source}" to ${to}`);
  return found;
}

/** The token of the counter-notice link to `notice` in a mail to `to` (waits for the mail). */
async function counterTokenOf(to: string, notice: string): Promise<string> {
  const needle = `/copyright/counter/${notice}/link`;
  let text: string | undefined;
  for (let i = 0; i < 600 && !text; i++) {
    text = t.backend.mailer.list().find((m) => m.to === to && m.text.includes(needle))?.text;
    if (!text) await new Promise((r) => setTimeout(r, 100));
  }
  if (!text) throw new Error(`no mail to ${to} with ${needle}`);
  return tokenOf(text, new RegExp(needle));
}

const tokenOf = (text: string, path: RegExp): string => {
  const m = new RegExp(`${path.source}#t=([0-9a-f]{64})`).exec(text);
  if (!m) throw new Error(`no link ${path.source} in ${text}`);
  return m[1]!;
};

const counter = (token: string, notice: string) => ({
  p_token: token,
  p_notice: notice,
  p_full_name: 'Uma Uploader',
  p_address: '2 Studio Lane, Berlin',
  p_phone: '',
  p_email: 'uma@uploader.test',
  p_explanation: 'I wrote and recorded this song myself.',
  p_good_faith_mistake: true,
  p_consent_to_jurisdiction: true,
  p_signature: 'Uma Uploader',
});

describe('the ladder', () => {
  let u: Uploader;
  const notices: string[] = [];

  beforeAll(async () => {
    u = await uploader();
    // Two now; the third after the clock has moved (else the deadline job removes it first).
    for (let i = 0; i < 2; i++) notices.push(await noticeAgainst(await trackOf(u)));
  });

  it('warns on the first strike', async () => {
    await removeNotice(notices[0]!);
    const s = await sanctions(u.id);
    expect(s.map((x) => x.kind)).toEqual(['warning']);
    expect(s[0]!.strike).not.toBeNull();
    const mail = await mailTo(u.email, /A warning on your Soundloft account/);
    expect(mail.text).toMatch(/Copyright strike 1/);
    const { rows } = await t.db.query<{ action: string }>(
      `select action from public.admin_audit_log where target_id = $1 order by id`,
      [s[0]!.strike],
    );
    expect(rows.map((r) => r.action)).toEqual(['copyright.strike']);
  });

  it('suspends for 14 days on the second, and the suspension ends by itself', async () => {
    await removeNotice(notices[1]!);
    const s = await sanctions(u.id);
    expect(s.map((x) => [x.kind, x.days])).toEqual([
      ['warning', null],
      ['suspension', 14],
    ]);
    await mailTo(u.email, /suspended until/);
    const upload = await u.client
      .from('tracks')
      .insert({ title: 'New', artist: 'U', duration: 60, audio_url: 'x', uploaded_by: u.id });
    expect(upload.error?.message).toMatch(/suspended/);
    // 14 days and a minute later by the test clock: free again, no job needed.
    await t.db.query(
      `update public.app_clock_offset set offset_by = offset_by + interval '14 days 1 minute' where id`,
    );
    const rename = await u.client
      .from('profiles')
      .update({ bio: 'back' })
      .eq('id', u.id)
      .select('id');
    expect(rename.data).toEqual([{ id: u.id }]);
  });

  it('bans on the third: no sign-in, no REST; the mails carry links that act without sign-in', async () => {
    notices.push(await noticeAgainst(await trackOf(u)));
    await removeNotice(notices[2]!);
    expect((await sanctions(u.id)).map((x) => x.kind)).toEqual(['warning', 'suspension', 'ban']);
    const signIn = await anon().auth.signInWithPassword({ email: u.email, password: PASSWORD });
    expect(signIn.error?.code).toBe('user_banned');
    expect((await u.client.from('tracks').select('id').limit(1)).data).toEqual([]);
    const refused = await u.client.rpc('copyright_counter_notify', {
      ...counter('', notices[2]!),
      p_token: undefined,
    });
    expect(refused.error?.message).toMatch(/banned/);

    const ban = await mailTo(u.email, /account is banned/);
    const counterToken = await counterTokenOf(u.email, notices[2]!);
    const appealToken = tokenOf(ban.text, /\/appeals\/link/);
    const banId = (await sanctions(u.id))[2]!.id;

    // The token is stored hashed only.
    const stored = await t.db.query(
      `select 1 from public.action_links where encode(token_hash, 'hex') = $1 or token_hash::text like $2`,
      [counterToken, `%${counterToken}%`],
    );
    expect(stored.rows).toEqual([]);

    // What a link opens: its decision, for anyone holding it.
    const opened = await anon().rpc('action_link_open', { p_token: appealToken });
    expect(opened.error).toBeNull();
    expect((opened.data as { sanction: { id: string } }).sanction.id).toBe(banId);

    // Another notice's link, another purpose, a made-up token: refused.
    const firstToken = await counterTokenOf(u.email, notices[0]!);
    expect(
      (await anon().rpc('copyright_counter_notify_by_link', counter(firstToken, notices[2]!))).error
        ?.message,
    ).toMatch(/not for this notice/);
    expect(
      (await anon().rpc('copyright_counter_notify_by_link', counter(appealToken, notices[2]!)))
        .error?.message,
    ).toMatch(/not valid/);
    expect(
      (await anon().rpc('copyright_counter_notify_by_link', counter('f'.repeat(64), notices[2]!)))
        .error?.message,
    ).toMatch(/not valid/);
    expect(
      (
        await anon().rpc('file_appeal_by_link', {
          p_token: appealToken,
          p_sanction: (await sanctions(u.id))[1]!.id,
          p_statement: 'This suspension was a mistake.',
        })
      ).error?.message,
    ).toMatch(/not for this decision/);

    // The right link: the counter-notice is taken, once.
    const sent = await anon().rpc(
      'copyright_counter_notify_by_link',
      counter(counterToken, notices[2]!),
    );
    expect(sent.error).toBeNull();
    expect((sent.data as { status: string }).status).toBe('counter_noticed');
    expect(
      (await anon().rpc('copyright_counter_notify_by_link', counter(counterToken, notices[2]!)))
        .error?.message,
    ).toMatch(/already been used/);
    // Reading what it opened stays possible (the page shows the counter-notice as sent).
    const reread = await anon().rpc('action_link_open', { p_token: counterToken });
    expect(reread.data).toMatchObject({ used: true, notice: { status: 'counter_noticed' } });

    // The appeal of the ban, by its link, once.
    const appeal = await anon().rpc('file_appeal_by_link', {
      p_token: appealToken,
      p_sanction: banId,
      p_statement: 'These are my own songs; I have sent a counter-notice.',
    });
    expect(appeal.error).toBeNull();
    expect((appeal.data as { user_id: string }).user_id).toBe(u.id);
    expect(
      (
        await anon().rpc('file_appeal_by_link', {
          p_token: appealToken,
          p_sanction: banId,
          p_statement: 'Once more, the same appeal.',
        })
      ).error?.message,
    ).toMatch(/already been used/);
    const { rows } = await t.db.query<{ via: string; actor: string | null }>(
      `select after ->> 'via' as via, actor_id as actor from public.admin_audit_log
        where action = 'appeal.file' and target_id = $1`,
      [(appeal.data as { id: string }).id],
    );
    expect(rows).toEqual([{ via: 'e-mailed link', actor: null }]);

    // Once sent, no outbox row holds a raw token of any purpose: every 64-hex string of every
    // sent row (params and body) is hashed and looked up among the links of all three purposes.
    const purposes = await t.db.query<{ purpose: string }>(
      `select distinct purpose from public.action_links
        where notice_id = $1 or sanction_id = $2 order by purpose`,
      [notices[2]!, banId],
    );
    expect(purposes.rows.map((r) => r.purpose)).toEqual([
      'appeal',
      'counter_notice',
      'legal_action',
    ]);
    let pending = 1;
    for (let i = 0; i < 600 && pending > 0; i++) {
      pending = (
        await t.db.query<{ n: number }>(
          `select count(*)::int as n from public.mail_outbox
            where sent_at is null and params ? 'action_token'`,
        )
      ).rows[0]!.n;
      if (pending > 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(pending).toBe(0);
    const leaked = await t.db.query(
      `select m.id, l.purpose from public.mail_outbox m
         cross join lateral regexp_matches(coalesce(m.body, '') || ' ' || m.params::text,
                                           '[0-9a-f]{64}', 'g') as x(hex)
         join public.action_links l on l.token_hash = public.action_link_hash(x.hex[1])
        where m.sent_at is not null`,
    );
    expect(leaked.rows).toEqual([]);
    const banRow = await t.db.query<{ body: string }>(
      `select body from public.mail_outbox where template = 'sanction.ban' and to_user = $1`,
      [u.id],
    );
    expect(banRow.rows[0]!.body).toContain('/appeals/link#t={action_token}');
    expect(banRow.rows[0]!.body).not.toContain(appealToken);

    // Still banned: the links act for one decision, they do not sign anyone in.
    expect(
      (await anon().auth.signInWithPassword({ email: u.email, password: PASSWORD })).error?.code,
    ).toBe('user_banned');
    expect((await u.client.from('profiles').select('id').eq('id', u.id)).data).toEqual([]);
  });

  it('lifts the ban its strike caused when the notice is restored, audited and mailed', async () => {
    const restored = await admin().rpc('copyright_restore', {
      p_notice: notices[2],
      p_reason: 'The claimant withdrew the notice.',
    });
    expect(restored.error).toBeNull();
    const s = await sanctions(u.id);
    expect(s.map((x) => [x.kind, x.lifted])).toEqual([
      ['warning', false],
      ['suspension', false],
      ['ban', true],
    ]);
    await mailTo(u.email, /ban has been lifted/);
    const { rows } = await t.db.query<{ banned: string | null }>(
      `select banned_until as banned from auth.users where id = $1`,
      [u.id],
    );
    expect(rows[0]!.banned).toBeNull();
    expect(
      (await anon().auth.signInWithPassword({ email: u.email, password: PASSWORD })).error,
    ).toBeNull();
    const audit = await t.db.query<{ action: string }>(
      `select action from public.admin_audit_log where target_id = $1 order by id`,
      [s[2]!.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['account.ban', 'account.lift_ban']);
  });
});

describe('links expire', () => {
  it('limits the calls of a link and refuses it after 30 days', async () => {
    const u = await uploader();
    const notice = await noticeAgainst(await trackOf(u));
    await removeNotice(notice);
    const token = await counterTokenOf(u.email, notice);
    // Rate-limited per link in Postgres: 20 calls an hour, then refused.
    for (let i = 0; i < 20; i++) {
      expect((await anon().rpc('action_link_open', { p_token: token })).error).toBeNull();
    }
    const limited = await anon().rpc('action_link_open', { p_token: token });
    expect(limited.error?.message).toMatch(/Too many tries with this link/);
    await t.db.query(`delete from auth.rate_limits where key like 'action_link:%'`);
    await t.db.query(
      `update public.app_clock_offset set offset_by = offset_by + interval '30 days 1 minute' where id`,
    );
    expect(
      (await anon().rpc('copyright_counter_notify_by_link', counter(token, notice))).error?.message,
    ).toMatch(/expired/);
  });
});

describe('several nodes', () => {
  it('two removals at once make a warning and a suspension, each once', async () => {
    const u = await uploader();
    const a = await noticeAgainst(await trackOf(u));
    const b = await noticeAgainst(await trackOf(u));
    await Promise.all([removeNotice(a), removeNotice(b)]);
    expect((await sanctions(u.id)).map((x) => x.kind).sort()).toEqual(['suspension', 'warning']);
    // A repeated lift or tick changes nothing further.
    const tick = await t.db.query<{ r: unknown }>(`select public.copyright_tick() as r`);
    expect(tick.rows).toHaveLength(1);
    expect(await sanctions(u.id)).toHaveLength(2);
  });
});

describe('add_business_days', () => {
  it('has one definition in effect, the bounded one', async () => {
    const { rows } = await t.db.query<{ n: number }>(
      `select count(*)::int as n from pg_proc
        where proname = 'add_business_days' and pronamespace = 'public'::regnamespace`,
    );
    expect(rows[0]!.n).toBe(1);
    await expect(t.db.query(`select public.add_business_days(now(), 367)`)).rejects.toThrow(
      /0 to 366/,
    );
  });
});
