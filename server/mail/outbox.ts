/**
 * The moderation mail outbox (`public.moderation_mail_outbox`, migration 20261130020000; docs/trust-and-safety.md §
 * Decision e-mails): e-mails a transaction decided (a sanction, a lift, an appeal received or
 * answered) are rows written in that same transaction, so a decision never goes unmailed and a
 * rolled-back one is never mailed. This loop sends them: it claims a batch with
 * `for update skip locked` and a lease (`claimed_until`), so several nodes never send one row
 * twice while both are alive; a node that dies mid-send leaves its rows to be claimed again when
 * the lease runs out (at-least-once, like any mail queue). An optional mail the recipient turned
 * off in Settings › Notifications (`public.mail_wanted`, asked when sending) is marked done
 * unsent. It wakes on the
 * `soundloft_moderation_mail` NOTIFY and sweeps every `sweepMs` for anything a NOTIFY missed.
 */
import type { Database } from '../db/database';
import { escapeHtml } from '../lib/escape-html';
import type { Mailer, MailMessage } from './mailer';

export const OUTBOX_CHANNEL = 'soundloft_moderation_mail';
/** A failing row is tried this many times, then left with its last error for an operator. */
export const OUTBOX_MAX_ATTEMPTS = 5;

interface OutboxRow {
  id: string;
  email: string | null;
  /** False for an optional mail the recipient turned off (public.mail_wanted). */
  wanted: boolean;
  subject: string;
  body: string;
}

export interface MailOutbox {
  /** Sends what is due now; resolves once this pass is done (tests await it). */
  drain(): Promise<number>;
  close(): Promise<void>;
}

/** The message of one row: the plain text, and the same text as minimal escaped HTML. */
export function renderOutboxMail(
  to: string,
  subject: string,
  body: string,
  publicUrl: string,
): MailMessage {
  const text = `Soundloft\n\n${body.replaceAll('{app}', publicUrl.replace(/\/+$/, ''))}`;
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 14px">${escapeHtml(p).replaceAll('\n', '<br>')}</p>`)
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#0f0f14;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#e8e8ee;font-size:15px;line-height:1.6">
${paragraphs}
</body></html>`;
  return { to, subject, text, html };
}

export async function startMailOutbox(options: {
  db: Database;
  mailer: Mailer;
  publicUrl: string;
  sweepMs?: number;
  log?: (line: string) => void;
}): Promise<MailOutbox> {
  const { db, mailer, publicUrl } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  let running: Promise<number> | null = null;
  let again = false;
  let closed = false;

  async function pass(): Promise<number> {
    const { rows } = await db.query<OutboxRow>(
      `with due as (
         select o.id from public.moderation_mail_outbox o
         where o.sent_at is null and o.attempts < $1
           and (o.claimed_until is null or o.claimed_until < now())
         order by o.created_at, o.id
         limit 20
         for update skip locked
       )
       update public.moderation_mail_outbox o
          set claimed_until = now() + interval '2 minutes', attempts = o.attempts + 1
         from due
        where o.id = due.id
       returning o.id::text as id, o.subject, o.body, public.mail_wanted(o.to_user, o.kind) as wanted,
                 coalesce(o.to_email, (select u.email from auth.users u where u.id = o.to_user)) as email`,
      [OUTBOX_MAX_ATTEMPTS],
    );
    for (const row of rows) {
      try {
        if (!row.wanted) {
          // Settings › Notifications: done, not sent (docs/account.md § Notifications).
          await db.query(
            `update public.moderation_mail_outbox set sent_at = now(), claimed_until = null,
                    last_error = 'not sent: turned off in the recipient''s notification settings'
             where id = $1`,
            [row.id],
          );
          continue;
        }
        if (!row.email) throw new Error('the recipient has no e-mail address');
        await mailer.send(renderOutboxMail(row.email, row.subject, row.body, publicUrl));
        await db.query(
          `update public.moderation_mail_outbox set sent_at = now(), claimed_until = null, last_error = null
           where id = $1`,
          [row.id],
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log(`mail outbox: row ${row.id} not sent: ${message}`);
        await db.query(
          `update public.moderation_mail_outbox set claimed_until = null, last_error = left($2, 1000)
           where id = $1`,
          [row.id, message],
        );
      }
    }
    return rows.length;
  }

  /** One pass at a time; a wake-up during a pass runs one more after it. */
  function drain(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let sent = 0;
      do {
        again = false;
        let n: number;
        do {
          n = await pass();
          sent += n;
        } while (n > 0 && !closed);
      } while (again && !closed);
      return sent;
    })().finally(() => {
      running = null;
    });
    return running;
  }

  const wake = () => {
    if (!closed) drain().catch((error) => log(`mail outbox: ${String(error)}`));
  };
  const stopListening = await db.listen(OUTBOX_CHANNEL, wake, wake);
  const timer = setInterval(wake, options.sweepMs ?? 30_000);
  timer.unref();
  wake();
  return {
    drain,
    async close() {
      closed = true;
      clearInterval(timer);
      await stopListening();
      await running?.catch(() => 0);
    },
  };
}
