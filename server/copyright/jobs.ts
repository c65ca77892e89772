/**
 * The copyright deadlines and the database's outgoing mail, on a node that works jobs
 * (docs/trust-and-safety.md § Deadlines): on every pass `public.copyright_tick()` applies the
 * removals and restorations whose deadline (by `app_clock()`) has passed, then each due row of
 * `public.mail_outbox` is claimed (`for update skip locked`), rendered and sent through the mail
 * module, and marked sent (or retried later with backoff). Several nodes may run it: the tick
 * locks the rows it changes and skips the locked ones, a mail is claimed by one node.
 */
import type { Database } from '../db/database';
import type { Mailer } from '../mail';
import { startJobLoop, type JobLoop } from '../lib/job-loop';
import { renderCopyrightMail, type OutboxMail } from './mail';

export interface CopyrightJobsOptions {
  db: Database;
  mailer: Mailer;
  /** The app's public origin (links in the e-mails). */
  publicUrl: string;
  /** How often an idle node looks (default 2 s: "at once" for an acknowledgement). */
  pollMs?: number;
  log?: (message: string) => void;
}

/** Applies the due deadlines now: {removed, restored}. */
export async function copyrightTick(db: Database): Promise<{ removed: number; restored: number }> {
  const { rows } = await db.query<{ r: { removed: number; restored: number } }>(
    'select public.copyright_tick() as r',
  );
  return rows[0]?.r ?? { removed: 0, restored: 0 };
}

export function startCopyrightJobs(options: CopyrightJobsOptions): JobLoop {
  const { db, mailer, publicUrl } = options;
  const log = options.log ?? ((m: string) => console.info(m));
  return startJobLoop<OutboxMail>({
    label: 'copyright',
    slots: 1,
    pollMs: options.pollMs ?? 2000,
    log,
    nameOf: (m) => `mail ${m.id} (${m.template})`,
    beforeClaim: async () => {
      const done = await copyrightTick(db);
      if (done.removed || done.restored) {
        log(`copyright: removed ${done.removed}, restored ${done.restored} (deadlines)`);
      }
    },
    claim: async () => {
      const { rows } = await db.query<OutboxMail>(
        'select m.id, m.template, m.to_email, m.params from public.mail_outbox_claim() m where m.id is not null',
      );
      return rows[0] ?? null;
    },
    run: async (mail) => {
      const message = renderCopyrightMail(mail, publicUrl);
      let error: string | null = null;
      if (!message) error = `unknown template ${mail.template}`;
      else {
        try {
          await mailer.send(message);
        } catch (e) {
          error = e instanceof Error ? e.message : String(e);
        }
      }
      await db.query('select public.mail_outbox_done($1, $2)', [mail.id, error]);
      if (error) log(`copyright: mail ${mail.id} not sent: ${error}`);
    },
    pending: async () => {
      const { rows } = await db.query<{ n: number }>(
        `select count(*)::int as n from public.mail_outbox
          where sent_at is null and next_attempt_at <= now() and attempts < 10`,
      );
      return (rows[0]?.n ?? 0) > 0;
    },
  });
}
