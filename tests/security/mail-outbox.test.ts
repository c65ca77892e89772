/**
 * The one mail outbox (docs/trust-and-safety.md § The mail outbox; migration 20261201040000):
 * a written mail to a user (the moderation triggers' `enqueue_user_mail`) and a template mail to
 * an address (the copyright flow's) queued through `enqueue_mail` go out once, through the one
 * sender, even when three senders (the target's and two more on the same database, as three
 * nodes) drain at the same time; a failed send is recorded and retried with backoff, not before;
 * no API role reads or writes the table or queues a mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevMailbox, type Mailer } from '../../server/mail';
import { startMailOutbox, type MailOutbox } from '../../server/mail/outbox';
import { renderCopyrightMail } from '../../server/copyright';
import { startTarget, type Target } from './support/target';
import { buildWorld, type World } from './support/world';

let t: Target;
let w: World;
const extra: { mailer: Mailer; outbox: MailOutbox }[] = [];

beforeAll(async () => {
  t = await startTarget();
  w = await buildWorld(t.db);
  for (let i = 0; i < 2; i++) {
    const mailer = createDevMailbox({ log: () => undefined });
    const outbox = await startMailOutbox({
      db: t.db,
      mailer,
      publicUrl: t.url,
      renderTemplate: renderCopyrightMail,
      sweepMs: 600_000,
      log: () => undefined,
    });
    extra.push({ mailer, outbox });
  }
});
afterAll(async () => {
  for (const e of extra) await e.outbox.close();
  await t?.close();
});

const mailers = () => [t.backend.mailer, ...extra.map((e) => e.mailer)];
const drainAll = () =>
  Promise.all([t.backend.mailOutbox!.drain(), ...extra.map((e) => e.outbox.drain())]);

/** The row's state once no sender holds it (polled: the NOTIFY may wake a sender first). */
async function settled(id: number) {
  for (let i = 0; i < 600; i++) {
    await drainAll();
    const { rows } = await t.db.query<{
      sent_at: string | null;
      attempts: number;
      last_error: string | null;
      wait_s: number;
    }>(
      `select sent_at, attempts, last_error,
              extract(epoch from next_attempt_at - now())::float8 as wait_s
         from public.mail_outbox where id = $1`,
      [id],
    );
    const row = rows[0]!;
    if (row.sent_at || row.last_error) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`mail ${id} neither sent nor failed`);
}

describe('the one mail outbox', () => {
  it('sends a written mail to a user and a template mail to an address once, across three senders', async () => {
    const claimant = `outbox-${Date.now()}@rights.test`;
    const { rows } = await t.db.query<{ a: number; b: number }>(
      `select public.enqueue_mail('sanction.warning', $1, null, 'A warning on your Soundloft account',
                'Reason: spam.' || E'\n\nAppeal: {app}/appeals') ::int as a,
              public.enqueue_mail('copyright_rejected', null, $2, null, null,
                jsonb_build_object('claimant_name', 'Clara', 'notice_id', 'n-1',
                                   'reason', 'Public domain.'))::int as b`,
      [w.other.id, claimant],
    );
    const { a, b } = rows[0]!;
    await Promise.all([drainAll(), drainAll()]);
    expect((await settled(a)).sent_at).not.toBeNull();
    expect((await settled(b)).sent_at).not.toBeNull();
    const all = mailers().flatMap((m) => m.list());
    const toUser = all.filter((m) => m.to === w.other.email && /A warning/.test(m.subject));
    expect(toUser).toHaveLength(1);
    expect(toUser[0]!.links).toContain(`${t.url}/appeals`);
    const toClaimant = all.filter((m) => m.to === claimant);
    expect(toClaimant).toHaveLength(1);
    expect(toClaimant[0]!.subject).toBe('Your copyright notice was not accepted');
    expect(toClaimant[0]!.text).toContain('Public domain.');
    const attempts = await t.db.query<{ attempts: number }>(
      'select attempts from public.mail_outbox where id = any($1::bigint[]) order by id',
      [[a, b]],
    );
    expect(attempts.rows.map((r) => r.attempts)).toEqual([1, 1]);
  });

  it('records a failed send and retries it with backoff, not before', async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `select public.enqueue_mail('no_such_template', null, 'nobody@rights.test', null, null, '{}')::int as id`,
    );
    const id = rows[0]!.id;
    const first = await settled(id);
    expect(first.sent_at).toBeNull();
    expect(first.last_error).toMatch(/unknown template no_such_template/);
    expect(first.attempts).toBe(1);
    // 30 s · 2^1 after the first failure.
    expect(first.wait_s).toBeGreaterThan(30);
    expect(first.wait_s).toBeLessThanOrEqual(60);
    await drainAll();
    expect((await settled(id)).attempts).toBe(1);
    // Its time comes: claimed again, fails again, waits twice as long.
    await t.db.query(`update public.mail_outbox set next_attempt_at = now() where id = $1`, [id]);
    await drainAll();
    const second = await settled(id);
    expect(second.attempts).toBe(2);
    expect(second.wait_s).toBeGreaterThan(60);
    expect(second.wait_s).toBeLessThanOrEqual(120);
  });

  it('gives up after 10 attempts (the row stays, with its error, for an operator)', async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `insert into public.mail_outbox (template, to_email, params, attempts, last_error)
       values ('no_such_template', 'nobody@rights.test', '{}', 10, 'earlier') returning id::int`,
    );
    await drainAll();
    const { rows: after } = await t.db.query<{ attempts: number; sent_at: string | null }>(
      'select attempts, sent_at from public.mail_outbox where id = $1',
      [rows[0]!.id],
    );
    expect(after[0]).toEqual({ attempts: 10, sent_at: null });
  });

  it('is the server’s only: no API role reads, writes or queues', async () => {
    for (const as of ['anon', w.owner, w.admin] as const) {
      const read = await t.request('GET', '/rest/v1/mail_outbox?select=id', { as });
      if (read.status < 400) expect(JSON.parse(read.body)).toEqual([]);
      for (const fn of [
        'enqueue_mail',
        'enqueue_user_mail',
        'mail_outbox_claim',
        'mail_outbox_done',
      ]) {
        const r = await t.request('POST', `/rest/v1/rpc/${fn}`, { as, body: '{}' });
        expect(r.status, fn).toBeGreaterThanOrEqual(400);
      }
    }
  });
});
