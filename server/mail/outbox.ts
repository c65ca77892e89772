/**
 * The database's mail outbox (`public.mail_outbox`, migrations 20261130010000 and 20261201040000;
 * docs/trust-and-safety.md § The mail outbox): e-mails a transaction decided (a copyright
 * acknowledgement, removal or forwarding, a sanction, a lift, an appeal received or answered) are
 * rows written in that same transaction through `public.enqueue_mail`, so a decision never goes
 * unmailed and a rolled-back one is never mailed. This loop sends them on every node that runs
 * jobs: `public.mail_outbox_claim` claims a batch `for update skip locked` with a lease
 * (`next_attempt_at` two minutes ahead), so several nodes never send one row twice while both are
 * alive; a node that dies mid-send leaves its rows to be claimed again when the lease runs out
 * (at-least-once, like any mail queue); `public.mail_outbox_done` marks a row sent, or records the
 * error and retries it with exponential backoff (up to 10 attempts). It wakes on the
 * `soundloft_mail_outbox` NOTIFY of every insert and sweeps every `sweepMs` for retries and for
 * anything a NOTIFY missed. An optional mail the recipient turned off in Settings › Notifications
 * (`public.mail_wanted`, asked when sending, so a mail queued before the switch is not sent
 * either) is marked done unsent.
 *
 * A row is either written (subject + body: `renderOutboxMail`) or a template with params, rendered
 * by `renderTemplate` (the copyright flow's, server/copyright/mail.ts, passed in by the backend).
 */
import type { Database } from '../db/database';
import { escapeHtml } from '../lib/escape-html';
import { extractLinks, type Mailer, type MailMessage } from './mailer';

export const OUTBOX_CHANNEL = 'soundloft_mail_outbox';
/** A failing row is tried this many times (mail_outbox_claim), then left with its last error. */
export const OUTBOX_MAX_ATTEMPTS = 10;
/** Rows claimed per query. */
const BATCH = 20;

/** One claimed row: a template mail (`subject`/`body` null) or a written one. */
export interface OutboxRow {
  id: number;
  template: string;
  /** The address (a user's current one, resolved when claimed); null if the user has none. */
  to_email: string | null;
  subject: string | null;
  body: string | null;
  params: Record<string, unknown>;
  /** False for an optional mail the recipient turned off (public.mail_wanted). */
  wanted?: boolean;
}

/** A template row with its recipient resolved (what a template renderer receives). */
export type TemplateMail = OutboxRow & { to_email: string };

export type TemplateRenderer = (mail: TemplateMail, publicUrl: string) => MailMessage | null;

export interface MailOutbox {
  /** Sends what is due now; resolves once this pass is done (tests await it). */
  drain(): Promise<number>;
  close(): Promise<void>;
}

/** The message of a written row: the plain text, and the same text as minimal escaped HTML. */
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
  return { to, subject, text, html, links: extractLinks(text) };
}

/**
 * A written mail's action link: the body says `{action_token}` where the token of its single-use
 * link goes, the token itself is in `params.action_token` (migration 20261201120000), which the
 * row forgets once sent, so no raw token stays in the outbox (docs/trust-and-safety.md § Action
 * links).
 */
export function withActionToken(body: string, params: Record<string, unknown>): string {
  if (!body.includes('{action_token}')) return body;
  const token = params.action_token;
  if (typeof token !== 'string' || !/^[0-9a-f]{64}$/.test(token)) {
    throw new Error('the link token of this mail is missing');
  }
  return body.replaceAll('{action_token}', token);
}

/** The message of one claimed row; throws when it cannot be rendered (recorded as its error). */
export function renderRow(
  row: OutboxRow,
  publicUrl: string,
  renderTemplate?: TemplateRenderer,
): MailMessage {
  const to = row.to_email;
  if (!to) throw new Error('the recipient has no e-mail address');
  if (row.subject !== null && row.body !== null) {
    return renderOutboxMail(to, row.subject, withActionToken(row.body, row.params), publicUrl);
  }
  const message = renderTemplate?.({ ...row, to_email: to }, publicUrl) ?? null;
  if (!message) throw new Error(`unknown template ${row.template}`);
  return message;
}

export async function startMailOutbox(options: {
  db: Database;
  mailer: Mailer;
  publicUrl: string;
  renderTemplate?: TemplateRenderer;
  sweepMs?: number;
  log?: (line: string) => void;
}): Promise<MailOutbox> {
  const { db, mailer, publicUrl, renderTemplate } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  let running: Promise<number> | null = null;
  let again = false;
  let closed = false;

  async function pass(): Promise<number> {
    const { rows } = await db.query<OutboxRow>(
      // Everything from the claim itself: a join back to mail_outbox would read the statement's
      // snapshot, older than the claim's, and drop a row committed in between (migration
      // 20261202000100).
      `select c.id::int as id, c.template, c.to_email, c.subject, c.body, c.params, c.wanted
         from public.mail_outbox_claim($1) c`,
      [BATCH],
    );
    for (const row of rows) {
      if (row.wanted === false) {
        // Settings › Notifications: done, not sent (docs/account.md § Notifications).
        await db.query(
          `update public.mail_outbox set sent_at = now(),
                  last_error = 'not sent: turned off in the recipient''s notification settings'
            where id = $1`,
          [row.id],
        );
        continue;
      }
      let error: string | null = null;
      try {
        await mailer.send(renderRow(row, publicUrl, renderTemplate));
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
        log(`mail outbox: row ${row.id} (${row.template}) not sent: ${error}`);
      }
      await db.query('select public.mail_outbox_done($1, $2)', [row.id, error]);
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
  const timer = setInterval(wake, options.sweepMs ?? 15_000);
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
