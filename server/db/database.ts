/**
 * One small interface over the two databases Soundloft runs on: PGlite (embedded, default) and
 * a real PostgreSQL (DATABASE_URL). Everything that touches SQL goes through it.
 */
export interface QueryResult<T = Record<string, unknown>> {
  rows: T[];
  /** Column names and Postgres type OIDs, in select order. */
  fields: { name: string; dataTypeID: number }[];
  /** Rows inserted, updated or deleted by the statement, when known. */
  affectedRows?: number;
}

export interface Queryable {
  /** One statement with bound parameters ($1, $2, ...). Values never reach SQL as text. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

/** One statement and its bound parameters. */
export interface Statement {
  sql: string;
  params?: unknown[];
}

export interface TransactionOptions {
  /**
   * Statements run first, before `fn`'s (an API request's role and claims). Their results are
   * not returned; if one fails, the transaction fails with its error and `fn`'s statements never
   * run outside it. On PostgreSQL they travel with BEGIN and `fn`'s first statement, pipelined:
   * no network round trip of their own.
   */
  prelude?: Statement[];
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction (BEGIN ... COMMIT, ROLLBACK on throw). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `statements` in order in ONE transaction and returns their results, in order. The
   * first failure rolls everything back and is thrown. On PostgreSQL BEGIN, the statements and
   * COMMIT are pipelined: one network round trip.
   */
  batch(statements: Statement[]): Promise<QueryResult[]>;
  /** Several statements without parameters (migrations, bootstrap). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /**
   * Connections in use right now (the /metrics pool gauges): PostgreSQL's pool; PGlite is one
   * connection, and `waiting` counts the statements queued behind its lock.
   */
  poolStats?(): PoolStats;
  /**
   * Receives the NOTIFYs sent on `channel` (after their transaction commits). On PostgreSQL a
   * dedicated connection LISTENs and reconnects after a loss (`onReconnect` then runs, because
   * notifications sent meanwhile were missed). Resolves to a function that stops listening.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>>;
}
