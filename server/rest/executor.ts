import { requestContextStatement } from '../db/as-role';
import type { Database, QueryResult, Queryable, Statement } from '../db/database';
import type { RequestAuth } from './auth';

export interface RequestContext {
  auth: RequestAuth;
  method: string;
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** `search_path` for the transaction (a schema other than public: server/rest/schemas.ts). */
  searchPath?: string;
  /**
   * End the transaction in ROLLBACK, whatever it did (PostgREST's db-tx-end / `Prefer:
   * tx=rollback`, server/rest/tx-end.ts): the answer is the one a commit would have given.
   */
  rollback?: boolean;
}

/** Carries a request's result out of a transaction that must roll back. */
class RolledBack<T> {
  constructor(readonly value: T) {}
}

/**
 * As PostgREST ends a transaction it condemns: deferred constraints are checked first (SET
 * CONSTRAINTS ALL IMMEDIATE), so a write that could not commit fails as it would on commit.
 */
async function endInRollback<T>(
  db: Database,
  prelude: Statement[],
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction(
      async (tx) => {
        const value = await fn(tx);
        await tx.query('SET CONSTRAINTS ALL IMMEDIATE');
        throw new RolledBack(value);
      },
      { prelude },
    );
  } catch (err) {
    if (err instanceof RolledBack) return err.value as T;
    throw err;
  }
}

const READ_ONLY: Statement = { sql: "select set_config('transaction_read_only', 'on', true)" };

/**
 * The statements that open every request's transaction: impersonate the request's role and
 * publish its JWT claims, method, path and headers (server/db's requestContextStatement:
 * PostgREST's exact set_config shape), so RLS decides. `readOnly` (GET/HEAD on /rpc) makes the
 * transaction read-only like PostgREST, so a volatile function that writes fails with 25006
 * (405). Every setting is transaction-local: COMMIT or ROLLBACK resets it on that connection.
 */
function contextStatements(ctx: RequestContext, readOnly: boolean): Statement[] {
  const context = requestContextStatement(ctx.auth.claims, {
    method: ctx.method,
    path: ctx.path,
    headers: ctx.headers,
  });
  const statements = readOnly ? [context, READ_ONLY] : [context];
  if (ctx.searchPath)
    statements.push({
      sql: "select set_config('search_path', $1, true)",
      params: [ctx.searchPath],
    });
  return statements;
}

/**
 * Runs `fn` in ONE transaction that starts with the request's context (contextStatements). On
 * PostgreSQL BEGIN, the context and `fn`'s first statement are pipelined: one round trip, and
 * COMMIT a second.
 */
export function runAsRequest<T>(
  db: Database,
  ctx: RequestContext,
  readOnly: boolean,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  const prelude = contextStatements(ctx, readOnly);
  if (ctx.rollback) return endInRollback(db, prelude, fn);
  return db.transaction(fn, { prelude });
}

/**
 * One statement as the request: the same transaction as runAsRequest, for requests whose answer
 * is one statement with nothing to decide before COMMIT (reads, RPC calls). On PostgreSQL BEGIN,
 * the context, the statement and COMMIT are pipelined: ONE network round trip.
 */
export async function runStatementAsRequest(
  db: Database,
  ctx: RequestContext,
  readOnly: boolean,
  statement: Statement,
  /** Statements before the context, as the connection's own user (server/rest/explain.ts). */
  before: Statement[] = [],
): Promise<QueryResult> {
  const prelude = [...before, ...contextStatements(ctx, readOnly)];
  if (ctx.rollback)
    return endInRollback(db, prelude, (tx) => tx.query(statement.sql, statement.params));
  const results = await db.batch([...prelude, statement]);
  const last = results.at(-1);
  if (!last) throw new Error('batch answered no result');
  return last;
}
