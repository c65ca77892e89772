/**
 * Liveness and readiness (docs/deploy.md#health-readiness-and-drain):
 *
 * - `GET /healthz`: 200 while the process runs and its event loop answers. A load balancer
 *   never takes a node out on it; an orchestrator restarts a process that stops answering.
 * - `GET /readyz`: 200 when the database answers `select 1` and the object store answers a
 *   size look-up of a sentinel object (absent is fine: the store answered); 503 while the node
 *   drains (SIGTERM) or when either check fails or takes longer than the check timeout.
 *
 * Concurrent probes share one check in flight, so a burst of probes costs one query.
 */
import type { Database } from '../db/database';
import type { ObjectStore } from '../storage/object-store';

/** The object looked up by the store check; it need not exist. */
export const READINESS_SENTINEL = { bucket: 'tracks', name: '_soundloft/readyz' } as const;

export interface Readiness {
  ready: boolean;
  draining: boolean;
  checks: { database: 'ok' | string; storage: 'ok' | string };
}

export interface Health {
  /** Set on SIGTERM: /readyz answers 503 from now on. */
  startDraining(): void;
  readonly draining: boolean;
  check(): Promise<Readiness>;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const reason = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 200) ?? '';

export function createHealth({
  db,
  store,
  timeoutMs = 2000,
}: {
  db: Pick<Database, 'query'>;
  store: Pick<ObjectStore, 'size'>;
  timeoutMs?: number;
}): Health {
  let draining = false;
  let inFlight: Promise<Readiness> | null = null;

  const run = async (): Promise<Readiness> => {
    const [database, storage] = await Promise.all([
      withTimeout(db.query('select 1'), timeoutMs, 'the database').then(
        () => 'ok' as const,
        reason,
      ),
      withTimeout(
        store.size(READINESS_SENTINEL.bucket, READINESS_SENTINEL.name),
        timeoutMs,
        'the object store',
      ).then(() => 'ok' as const, reason),
    ]);
    return {
      ready: !draining && database === 'ok' && storage === 'ok',
      draining,
      checks: { database, storage },
    };
  };

  return {
    startDraining() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    check() {
      inFlight ??= run().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
  };
}
