import { applyRequestContext } from '../db/as-role';
import type { Database, Queryable } from '../db/database';
import type { RequestAuth } from './auth';

export interface RequestContext {
  auth: RequestAuth;
  method: string;
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
}

/**
 * Runs `fn` in ONE transaction that first impersonates the request's role and publishes its JWT
 * claims, method, path and headers (server/db's applyRequestContext: PostgREST's exact
 * set_config shape), so RLS decides. `readOnly` (GET/HEAD on /rpc) makes the transaction read-only
 * like PostgREST, so a volatile function that writes fails with 25006 (405).
 */
export function runAsRequest<T>(
  db: Database,
  ctx: RequestContext,
  readOnly: boolean,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await applyRequestContext(tx, ctx.auth.claims, {
      method: ctx.method,
      path: ctx.path,
      headers: ctx.headers,
    });
    if (readOnly) await tx.query("select set_config('transaction_read_only', 'on', true)");
    return fn(tx);
  });
}
