/**
 * The account jobs (docs/privacy-rights.md): data exports and account deletions, job rows in
 * Postgres (`public.data_exports`, `public.account_deletions`) claimed `for update skip locked`
 * under the leases of the processing queue (server/processing/lease.ts), so several nodes share
 * them: a killed worker's job is taken over once its lease runs out, and a stale worker's writes
 * are fenced by its claim token. A deletion is claimed once its grace period is over
 * (`run_after`), and every step of it is idempotent: run again after a crash it finishes the
 * same way. Also expires export archives after their link's 7 days and deletes anonymised money
 * records after the accounting retention.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database';
import { startJobLoop } from '../lib/job-loop';
import type { Mailer } from '../mail';
import type { ObjectStore } from '../storage/object-store';
import { signObjectUrl } from '../storage/signed-urls';
import {
  LEASE_MS,
  LeaseLost,
  claimToken,
  claimableSql,
  holdLease,
  type HeldLease,
} from '../processing/lease';
import { collectSections, writeArchive, type WrittenArchive } from './export-archive';
import { deleteAccount, type SubscriptionCanceller } from './delete-account';
import { exportReadyMail } from './mails';

export interface AccountJobsOptions {
  db: Database;
  store: ObjectStore;
  mailer: Mailer;
  jwtSecret: string;
  /** The app's public origin: the export link points there. */
  publicUrl: string;
  /** Cancels Stripe subscriptions (null: payments are off; a deletion then skips that step). */
  cancelSubscription: SubscriptionCanceller | null;
  /** How often an idle node looks for due jobs (ms, default 2000). */
  pollMs?: number;
  leaseMs?: number;
  /** Jobs at once (default 1; 0 works nothing). */
  slots?: number;
  log?: (message: string) => void;
}

export interface AccountJobs {
  kick(): void;
  idle(): Promise<void>;
  close(): Promise<void>;
  handBack(): Promise<number>;
}

const LINK_SECONDS = 7 * 24 * 60 * 60;
const MAX_ATTEMPTS = 5;

type Job =
  | { kind: 'export'; id: string; user_id: string; attempts: number; token: string }
  | { kind: 'deletion'; id: string; user_id: string; attempts: number; token: string };

export function startAccountJobs(options: AccountJobsOptions): AccountJobs {
  const { db, store, mailer } = options;
  const log = options.log ?? (() => undefined);
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const me = `account-${process.pid}-${randomUUID().slice(0, 8)}`;
  const leases = new Map<string, HeldLease>();

  const claim = async (): Promise<Job | null> => {
    const token = claimToken(me);
    // Deletions first: erasure has a deadline, an export waits a moment.
    const deletion = await db.query<{ user_id: string; attempts: number }>(
      `with next as (
         select user_id from public.account_deletions
          where ${claimableSql('$2')} order by run_after limit 1 for update skip locked)
       update public.account_deletions d
          set state = 'running', attempts = d.attempts + 1, locked_by = $1, locked_at = now(),
              updated_at = now()
         from next where d.user_id = next.user_id
       returning d.user_id, d.attempts`,
      [token, leaseMs / 1000],
    );
    const d = deletion.rows[0];
    if (d)
      return { kind: 'deletion', id: d.user_id, user_id: d.user_id, attempts: d.attempts, token };
    const exported = await db.query<{ id: string; user_id: string; attempts: number }>(
      `with next as (
         select id from public.data_exports
          where ${claimableSql('$2')} order by run_after limit 1 for update skip locked)
       update public.data_exports e
          set state = 'running', attempts = e.attempts + 1, locked_by = $1, locked_at = now(),
              updated_at = now(), stage = 'collecting'
         from next where e.id = next.id
       returning e.id, e.user_id, e.attempts`,
      [token, leaseMs / 1000],
    );
    const e = exported.rows[0];
    return e ? { kind: 'export', ...e, token } : null;
  };

  /** A fenced update of the export row (throws LeaseLost when the claim is no longer ours). */
  const exportUpdate = async (job: Job, set: string, params: unknown[] = []) => {
    const { rows } = await db.query(
      `update public.data_exports set ${set}, updated_at = now()
        where id = $1 and locked_by = $2 and state = 'running' returning id`,
      [job.id, job.token, ...params],
    );
    if (rows.length === 0) throw new LeaseLost(job.id);
  };

  const runExport = async (job: Job) => {
    const sections = await collectSections(db, job.user_id);
    await exportUpdate(job, `stage = 'audio', progress = 10`);
    const name = `${job.user_id}/${job.id}.zip`;
    // Written as it is made (no whole archive in memory), under this claim's own name; moved to
    // its final name only inside the fenced transaction, so a stale worker's late bytes never
    // replace the archive a takeover finished.
    const partial = `${job.user_id}/${job.id}.${job.token.replace(/[^a-z0-9]/gi, '').slice(0, 16)}.part`;
    let written: WrittenArchive;
    try {
      written = await writeArchive(store, 'exports', partial, sections, async (fraction) => {
        await exportUpdate(job, `progress = $3`, [10 + Math.floor(fraction * 80)]);
      });
      await exportUpdate(job, `stage = 'storing', progress = 90`);
      await db.transaction(async (tx) => {
        // The fence first: its row lock keeps a takeover out until this commits.
        const done = await tx.query(
          `update public.data_exports
              set state = 'ready', stage = null, progress = 100, object_name = $3, size_bytes = $4,
                  expires_at = now() + make_interval(days => public.data_export_link_days()),
                  locked_by = null, last_error = null, updated_at = now()
            where id = $1 and locked_by = $2 and state = 'running' returning id`,
          [job.id, job.token, name, written.size],
        );
        if (done.rows.length === 0) throw new LeaseLost(job.id);
        // The server's own object: its row as the storage API would write it.
        await tx.query(
          `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, version)
           values ('exports', $1, $2::text::uuid, $2::text, $3::jsonb, $4)
           on conflict (bucket_id, name) do update set metadata = excluded.metadata,
             version = excluded.version, updated_at = now()`,
          [
            name,
            job.user_id,
            JSON.stringify({
              eTag: written.eTag,
              size: written.size,
              mimetype: 'application/zip',
              cacheControl: 'no-store',
              lastModified: new Date().toISOString(),
              contentLength: written.size,
              httpStatusCode: 200,
            }),
            randomUUID(),
          ],
        );
        await store.move('exports', partial, name);
      });
    } catch (error) {
      await store.remove('exports', partial).catch(() => undefined);
      throw error;
    }
    const token = signObjectUrl(options.jwtSecret, 'exports', name, LINK_SECONDS);
    const base = options.publicUrl.replace(/\/+$/, '');
    const link = `${base}/storage/v1/object/sign/exports/${name}?token=${token}&download=soundloft-data.zip`;
    const { rows } = await db.query<{ email: string | null }>(
      'select email from auth.users where id = $1',
      [job.user_id],
    );
    if (rows[0]?.email) await mailer.send(exportReadyMail(rows[0].email, link));
    log(`account: export ${job.id} ready (${written.size} bytes)`);
  };

  const failExport = async (job: Job, error: unknown) => {
    const message = String((error as Error)?.message ?? error).slice(0, 2000);
    const final = job.attempts >= MAX_ATTEMPTS;
    await exportUpdate(
      job,
      final
        ? `state = 'failed', stage = null, locked_by = null, last_error = $3`
        : `state = 'queued', locked_by = null, last_error = $3,
           run_after = now() + make_interval(secs => $4)`,
      final ? [message] : [message, 5 * 2 ** job.attempts],
    ).catch(() => undefined);
    log(`account: export ${job.id} ${final ? 'failed' : 'will be retried'}: ${message}`);
  };

  const runDeletion = async (job: Job, lease: HeldLease) => {
    await deleteAccount({
      db,
      store,
      userId: job.user_id,
      token: job.token,
      lease,
      cancelSubscription: options.cancelSubscription,
    });
    log(`account: ${job.user_id} deleted`);
  };

  const retryDeletion = async (job: Job, error: unknown) => {
    const message = String((error as Error)?.message ?? error).slice(0, 2000);
    // Never given up: erasure is owed. Backs off to an hour between tries.
    await db
      .query(
        `update public.account_deletions
            set state = 'queued', locked_by = null, last_error = $3, updated_at = now(),
                run_after = now() + make_interval(secs => $4)
          where user_id = $1 and locked_by = $2 and state = 'running'`,
        [job.user_id, job.token, message, Math.min(3600, 5 * 2 ** job.attempts)],
      )
      .catch(() => undefined);
    log(`account: deletion of ${job.user_id} will be retried: ${message}`);
  };

  const run = async (job: Job) => {
    const table = job.kind === 'export' ? 'data_exports' : 'account_deletions';
    const lease = holdLease(db, table, job.id, job.token, leaseMs);
    leases.set(job.token, lease);
    try {
      if (job.kind === 'export') await runExport(job);
      else await runDeletion(job, lease);
    } catch (error) {
      if (error instanceof LeaseLost) {
        log(`account: ${job.kind} ${job.id}: ${error.message}; this worker's result is dropped`);
      } else if (job.kind === 'export') await failExport(job, error);
      else await retryDeletion(job, error);
    } finally {
      lease.stop();
      leases.delete(job.token);
    }
  };

  /** Housekeeping on every pass: expired export archives, and money records past retention. */
  const sweep = async () => {
    const { rows } = await db.query<{ id: string; object_name: string | null }>(
      `update public.data_exports set state = 'expired', updated_at = now()
        where state = 'ready' and expires_at < now()
       returning id, object_name`,
    );
    for (const row of rows) {
      if (!row.object_name) continue;
      await db.query(`delete from storage.objects where bucket_id = 'exports' and name = $1`, [
        row.object_name,
      ]);
      await store.remove('exports', row.object_name).catch(() => undefined);
    }
    await db.query(
      `delete from public.earnings_ledger
        where anonymised_at < now() - make_interval(years => public.accounting_retention_years())`,
    );
    await db.query(
      `delete from public.withdrawals w
        where w.anonymised_at < now() - make_interval(years => public.accounting_retention_years())
          and not exists (select 1 from public.earnings_ledger e where e.withdrawal_id = w.id)`,
    );
  };

  const loop = startJobLoop<Job>({
    slots: options.slots ?? 1,
    pollMs: options.pollMs ?? 2000,
    claim,
    run,
    beforeClaim: sweep,
    pending: async () => {
      const { rows } = await db.query<{ n: number }>(
        `select ((select count(*) from public.data_exports where state in ('queued', 'running')
                   and run_after <= now())
               + (select count(*) from public.account_deletions where run_after <= now()))::int as n`,
      );
      return (rows[0]?.n ?? 0) > 0;
    },
    handBack: async (job) => (await leases.get(job.token)?.handBack()) ?? false,
    log,
    label: 'account',
    nameOf: (job) => `${job.kind} ${job.id}`,
  });
  return { kick: loop.kick, idle: loop.idle, close: loop.close, handBack: loop.handBack };
}
