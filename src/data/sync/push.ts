/**
 * Push: drains the signed-in user's outbox in order, in batches, through apply_mutations.
 * Entries are marked inflight and read in one transaction (so a concurrent local write cannot
 * collapse what is being sent), then settled: applied → removed; rejected → dead letter, the
 * user told, the row re-read; no answer → back to pending (the next send is deduplicated).
 */
import type { DeadLetter, OutboxEntry, SoundloftDb } from '../db';
import { classify, RemoteError, type RemoteFailure } from './errors';
import { REJECTION_MESSAGES } from './messages';
import { seqOf, userQueue } from './outbox';
import { markDirty, refetchTouched } from './refetch';
import type { MutationResult, SyncRemote, WireMutation } from './types';

export interface PushDeps {
  db: SoundloftDb;
  remote: SyncRemote;
  userId: string;
  clientId: string;
  batchSize?: number;
  onRejected?: (letter: DeadLetter) => void;
}

export type PushOutcome =
  | { kind: 'done'; sent: number }
  | { kind: 'retry'; error: RemoteFailure }
  | { kind: 'auth-failed' }
  | { kind: 'wrong-user' };

const toWire = (e: OutboxEntry): WireMutation => ({
  id: e.mutationId,
  op: e.op,
  user_id: e.userId,
  args: e.payload,
});

function asFailure(error: unknown): RemoteFailure {
  if (error instanceof RemoteError) return error;
  return { status: 0, code: '', message: error instanceof Error ? error.message : String(error) };
}

async function take(db: SoundloftDb, userId: string, size: number): Promise<OutboxEntry[]> {
  return db.transaction('rw', db.outbox, async () => {
    const batch = await userQueue(db, userId).limit(size).toArray();
    await db.outbox.bulkUpdate(
      batch.map((e) => ({ key: seqOf(e), changes: { status: 'inflight', sent: true } })),
    );
    return batch;
  });
}

async function release(db: SoundloftDb, batch: OutboxEntry[], failed: boolean): Promise<void> {
  await db.outbox.bulkUpdate(
    batch.map((e) => ({
      key: seqOf(e),
      changes: { status: 'pending', ...(failed ? { attempts: e.attempts + 1 } : {}) },
    })),
  );
}

async function settle(
  deps: PushDeps,
  batch: OutboxEntry[],
  results: MutationResult[],
): Promise<DeadLetter[]> {
  const { db } = deps;
  const byId = new Map(results.map((r) => [r.id, r]));
  const letters: DeadLetter[] = [];
  // Bulk operations, not one awaited request per entry: a batch settles in a few round trips.
  const unanswered: OutboxEntry[] = [];
  const answered: OutboxEntry[] = [];
  for (const e of batch) {
    const result = byId.get(e.mutationId);
    if (!result) {
      unanswered.push(e);
      continue;
    }
    answered.push(e);
    if (result.status === 'rejected') {
      letters.push({
        mutationId: e.mutationId,
        userId: e.userId,
        op: e.op,
        entity: e.entity,
        key: e.key,
        payload: e.payload,
        code: result.code ?? '',
        message: result.message ?? '',
        userMessage: REJECTION_MESSAGES[e.op] ?? '',
        failedAt: Date.now(),
      });
    }
  }
  await db.transaction('rw', [db.outbox, db.deadLetters], async () => {
    if (unanswered.length) {
      await db.outbox.bulkUpdate(
        unanswered.map((e) => ({ key: seqOf(e), changes: { status: 'pending' } })),
      );
    }
    await db.outbox.bulkDelete(answered.map(seqOf));
    const shown = letters.filter((l) => l.userMessage);
    if (shown.length) await db.deadLetters.bulkPut(shown);
  });
  return letters;
}

export async function push(deps: PushDeps): Promise<PushOutcome> {
  const { db, remote, userId } = deps;
  const batchSize = deps.batchSize ?? 100;
  let size = batchSize;
  let refreshed = false;
  let sent = 0;
  for (;;) {
    if ((await userQueue(db, userId).count()) === 0) return { kind: 'done', sent };
    // Never replay one user's writes under another user's session.
    if ((await remote.currentUserId()) !== userId) return { kind: 'wrong-user' };
    const batch = await take(db, userId, size);
    if (!batch.length) return { kind: 'done', sent };
    let results: MutationResult[];
    try {
      results = await remote.applyMutations(deps.clientId, batch.map(toWire));
    } catch (error) {
      const failure = asFailure(error);
      const kind = classify(failure);
      await release(db, batch, kind === 'retry');
      if (kind === 'auth') {
        if (!refreshed && (await remote.refreshSession().catch(() => false))) {
          refreshed = true;
          continue;
        }
        return { kind: 'auth-failed' };
      }
      if (kind === 'retry') return { kind: 'retry', error: failure };
      // The request as a whole was refused: find the culprit by sending one at a time.
      if (batch.length > 1) {
        size = 1;
        continue;
      }
      const only = batch[0];
      if (!only) continue;
      results = [
        { id: only.mutationId, status: 'rejected', code: failure.code, message: failure.message },
      ];
    }
    const letters = await settle(deps, batch, results);
    sent += batch.length;
    for (const letter of letters) {
      if (letter.userMessage) deps.onRejected?.(letter);
      else console.warn('sync: rejected', letter.op, letter.code, letter.message);
    }
    if (size === 1) size = batchSize;
    await refetchTouched(deps, batch).catch(async (error: unknown) => {
      console.warn('sync: re-read after push failed, retried before the next pull', error);
      await markDirty(deps, batch);
    });
  }
}
