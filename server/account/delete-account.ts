/**
 * Deleting an account once its grace period is over (docs/privacy-rights.md § Deletion). Every
 * step can run again after a crash or a takeover and ends the same way:
 * 1. the Stripe subscriptions are cancelled now (not at the period's end; Stripe's
 *    "already canceled" counts as done);
 * 2. every stored file of the account goes: originals, renditions, stems, covers, avatars,
 *    export archives (objects the user owns, under their folder, or of their tracks);
 * 3. one transaction, fenced by the claim: the earnings ledger and withdrawals are anonymised
 *    (kept for accounting), the admin audit log and copyright notices pointed at the same
 *    pseudonym (`anonymise_account_references`), the tracks deleted (which takes them out of every playlist), the
 *    sync tombstones addressed to the user dropped, then auth.users: the cascade removes the
 *    profile, likes, follows, playlists, history, lyrics, sessions, factors and the job rows.
 * Realtime closes the account's sockets (the same NOTIFY as a ban: the user no longer exists).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database';
import type { ObjectStore } from '../storage/object-store';
import { LeaseLost, type HeldLease } from '../processing/lease';
import { BANNED_CHANNEL } from '../realtime/sanctions';

/** Cancels one Stripe subscription at once; resolves when it is cancelled (or already was). */
export type SubscriptionCanceller = (subscriptionId: string) => Promise<void>;

export interface DeleteAccountInput {
  db: Database;
  store: ObjectStore;
  userId: string;
  /** The claim's token on account_deletions (fences the last transaction). */
  token: string;
  lease: HeldLease;
  cancelSubscription: SubscriptionCanceller | null;
}

export async function deleteAccount(input: DeleteAccountInput): Promise<void> {
  const { db, store, userId, token, lease } = input;
  const stage = async (name: string) => {
    const { rows } = await db.query(
      `update public.account_deletions set stage = $3, locked_at = now(), updated_at = now()
        where user_id = $1 and locked_by = $2 and state = 'running' returning user_id`,
      [userId, token, name],
    );
    if (rows.length === 0) throw new LeaseLost(userId);
  };

  await stage('subscriptions');
  const subs = await db.query<{ id: string }>(
    `select id from public.subscriptions
      where user_id = $1 and status not in ('canceled', 'incomplete_expired')`,
    [userId],
  );
  for (const sub of subs.rows) {
    if (!input.cancelSubscription)
      throw new Error(`subscription ${sub.id} is live but payments are off on this node`);
    await input.cancelSubscription(sub.id);
    await db.query(
      `update public.subscriptions set status = 'canceled', canceled_at = coalesce(canceled_at, now()),
              ended_at = coalesce(ended_at, now()) where id = $1`,
      [sub.id],
    );
  }

  await stage('files');
  const objects = await db.query<{ bucket_id: string; name: string }>(
    `select o.bucket_id, o.name from storage.objects o
      where o.owner = $1::text::uuid or o.owner_id = $1::text or o.name like $1::text || '/%'
         or (o.bucket_id in ('renditions', 'stems') and exists (
               select 1 from public.tracks t
                where t.uploaded_by = $1::text::uuid and o.name like t.id::text || '/%'))`,
    [userId],
  );
  for (const o of objects.rows) {
    if (!(await lease.check())) throw new LeaseLost(userId);
    await store.remove(o.bucket_id, o.name);
    await db.query('delete from storage.objects where bucket_id = $1 and name = $2', [
      o.bucket_id,
      o.name,
    ]);
  }

  await stage('records');
  await db.transaction(async (tx) => {
    // The fence first: its row lock keeps a takeover out until this commits.
    const held = await tx.query(
      `select user_id from public.account_deletions
        where user_id = $1 and locked_by = $2 and state = 'running' for update`,
      [userId, token],
    );
    if (held.rows.length === 0) throw new LeaseLost(userId);
    const formerAccount = randomUUID();
    // The audit log and copyright notices keep their rows, pointed at the same pseudonym.
    await tx.query('select public.anonymise_account_references($1, $2)', [userId, formerAccount]);
    await tx.query(
      `update public.earnings_ledger
          set former_account = $2, anonymised_at = now(), user_id = null
        where user_id = $1`,
      [userId, formerAccount],
    );
    await tx.query(
      `update public.withdrawals
          set former_account = $2, anonymised_at = now(), user_id = null,
              details = 'erased with the account'
        where user_id = $1`,
      [userId, formerAccount],
    );
    const tracks = await tx.query<{ id: string }>(
      'delete from public.tracks where uploaded_by = $1 returning id',
      [userId],
    );
    // Their files are gone already (step 2); nothing left for the sweeper to find.
    await tx.query(
      `delete from public.storage_garbage
        where name like $1::text || '/%' or split_part(name, '/', 1) = any ($2::text[])`,
      [userId, tracks.rows.map((t) => t.id)],
    );
    // Rate-limit buckets keyed by the address (sign-in attempts, mails): short-lived, but theirs.
    await tx.query(
      `delete from auth.rate_limits r using auth.users u
        where u.id = $1 and u.email is not null and r.key like '%:' || lower(u.email)`,
      [userId],
    );
    await tx.query('delete from auth.refresh_tokens where user_id = $1', [userId]);
    await tx.query('delete from auth.flow_state where user_id = $1', [userId]);
    await tx.query('delete from auth.users where id = $1', [userId]);
    // After the cascade, which writes the tombstones of the user's own rows.
    await tx.query('delete from public.sync_deletions where visible_to = $1', [userId]);
    await tx.query('select pg_notify($1, $2)', [BANNED_CHANNEL, userId]);
  });
}
