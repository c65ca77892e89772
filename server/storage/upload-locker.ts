/**
 * A @tus/utils `Locker` whose locks live in PostgreSQL (`storage.upload_locks`), so that two
 * requests for one resumable upload never write it at once whichever nodes they reach (the
 * default MemoryLocker only sees its own process). Used when the object store is S3: then any node
 * may receive any PATCH.
 *
 * A lock is a lease row (upload id, holder, expiry) taken with one upsert that only succeeds when
 * no live lease exists; the holder renews it every third of its lifetime while its request runs
 * and deletes it on unlock. A node that dies mid-request loses its locks when they expire (60 s).
 * A lease and not `pg_advisory_lock`: an advisory lock belongs to a database session, so every
 * upload in flight would hold one pooled connection for as long as its client takes to send a
 * chunk (and on PGlite, whose one connection is shared, it would stall every query).
 *
 * TUS asks the holder of a lock to let go when another request wants it (a client that lost its
 * connection and retries): a waiter sends `release <id>` on the NOTIFY channel, every node
 * hears it and the one holding the lock cancels its request (`requestRelease`); an unlock sends
 * `free <id>` so waiters try again at once. Waiters also retry on a backoff (a NOTIFY sent while a
 * listener reconnects is lost), up to 30 s as MemoryLocker, then ERR_LOCK_TIMEOUT.
 */
import { randomUUID } from 'node:crypto';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { Database } from '../db/database';

const CHANNEL = 'storage_upload_locks';

export interface UploadLocker extends Locker {
  close(): Promise<void>;
}

export interface UploadLockerOptions {
  /** How long a lease lasts without renewal (a dead node's lock is free after this). */
  leaseMs?: number;
  /** How long a request waits for a lock before giving up (TUS: ERR_LOCK_TIMEOUT). */
  acquireTimeoutMs?: number;
}

export async function createUploadLocker(
  db: Database,
  { leaseMs = 60_000, acquireTimeoutMs = 30_000 }: UploadLockerOptions = {},
): Promise<UploadLocker> {
  /** The locks this process holds, by upload id: how to ask their request to let go. */
  const held = new Map<string, RequestRelease>();
  /** Requests of this process waiting for a lock, by upload id. */
  const waiting = new Map<string, Set<() => void>>();

  const stopListening = await db.listen(CHANNEL, (payload) => {
    const [kind, id] = [
      payload.slice(0, payload.indexOf(' ')),
      payload.slice(payload.indexOf(' ') + 1),
    ];
    if (kind === 'release') void held.get(id)?.();
    if (kind === 'free') for (const wake of waiting.get(id) ?? []) wake();
  });
  const notify = (kind: 'release' | 'free', id: string) =>
    db.query('select pg_notify($1, $2)', [CHANNEL, `${kind} ${id}`]).then(() => undefined);

  const tryAcquire = async (id: string, holder: string): Promise<boolean> => {
    const { rows } = await db.query(
      `insert into storage.upload_locks (id, holder, expires_at)
       values ($1, $2, now() + $3 * interval '1 millisecond')
       on conflict (id) do update set holder = excluded.holder, expires_at = excluded.expires_at
         where storage.upload_locks.expires_at < now()
       returning holder`,
      [id, holder, leaseMs],
    );
    return rows.length > 0;
  };

  /** Resolves on `free <id>`, after `ms`, or when `signal` aborts. */
  const waitForFree = (id: string, ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const set = waiting.get(id) ?? new Set();
      waiting.set(id, set);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0) waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
      set.add(done);
    });

  const newLock = (id: string): Lock => {
    const holder = randomUUID();
    let renewal: NodeJS.Timeout | null = null;
    return {
      async lock(signal, requestRelease) {
        const deadline = Date.now() + acquireTimeoutMs;
        let backoff = 50;
        for (;;) {
          if (signal.aborted || Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
          if (await tryAcquire(id, holder)) break;
          await notify('release', id);
          await waitForFree(id, Math.min(backoff, deadline - Date.now()), signal);
          backoff = Math.min(backoff * 2, 1000);
        }
        held.set(id, requestRelease);
        renewal = setInterval(() => {
          void db
            .query(
              `update storage.upload_locks set expires_at = now() + $3 * interval '1 millisecond'
                where id = $1 and holder = $2`,
              [id, holder, leaseMs],
            )
            .catch(() => undefined);
        }, leaseMs / 3);
        renewal.unref();
      },
      async unlock() {
        if (renewal) clearInterval(renewal);
        renewal = null;
        held.delete(id);
        await db.query('delete from storage.upload_locks where id = $1 and holder = $2', [
          id,
          holder,
        ]);
        await notify('free', id);
      },
    };
  };

  return {
    newLock,
    close: () => stopListening(),
  };
}
