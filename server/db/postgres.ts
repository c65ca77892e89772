/** `Database` on a real PostgreSQL server through a node-postgres pool (DATABASE_URL). */
import pg from 'pg';
import type { Database, QueryResult, Queryable, Statement, TransactionOptions } from './database';
import type { PoolStats } from './database';
import { RAW_TEXT_ARRAY_TYPE_OIDS, RAW_TEXT_TYPE_OIDS, SESSION_SETTINGS } from './type-parsers';

/** text[]: its parser turns any array literal into an array of strings. */
type TypeId = Parameters<typeof pg.types.getTypeParser>[0];
const TEXT_ARRAY_OID = 1009 as TypeId;

/** Type parsers of this pool only (node-postgres' global parsers are left alone). */
function typeParsers(): pg.CustomTypesConfig {
  const textArray = pg.types.getTypeParser(TEXT_ARRAY_OID);
  const raw = new Set<number>(Object.values(RAW_TEXT_TYPE_OIDS));
  const rawArrays = new Set<number>(Object.values(RAW_TEXT_ARRAY_TYPE_OIDS));
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (raw.has(oid)) return (value: string) => value;
      if (rawArrays.has(oid)) return textArray;
      return pg.types.getTypeParser(oid as TypeId, format);
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/**
 * Most statement texts given a name (prepared once per connection, kept by the server for the
 * connection's life). Request shapes beyond it run unnamed, as before: a client inventing endless
 * query shapes cannot grow every backend's memory without bound.
 */
const MAX_NAMED_STATEMENTS = 200;

/**
 * Runs `send` (queries written synchronously: the pool is in pipeline mode) with the socket
 * corked, so their protocol messages (Parse, Bind, Describe, Execute, Sync each a write of
 * their own in node-postgres) leave in one writev instead of one system call each.
 */
function corked<T>(client: pg.PoolClient, send: () => T): T {
  const stream = client.connection.stream;
  stream.cork();
  try {
    return send();
  } finally {
    stream.uncork();
  }
}

function toQueryResult<T>(result: pg.QueryResult): QueryResult<T> {
  return {
    rows: result.rows as T[],
    fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    ...(result.rowCount === null ? {} : { affectedRows: result.rowCount }),
  };
}

/** A channel as an identifier (chosen by the server's code, never user input). */
const quoteIdent = (channel: string) => `"${channel.replaceAll('"', '""')}"`;
const listenSql = (channel: string) => `listen ${quoteIdent(channel)}`;

class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #clientConfig: pg.ClientConfig;
  readonly #listeners = new Set<{ stop: () => Promise<void> }>();
  /** The channels listened to, and who hears each (one shared LISTEN connection). */
  readonly #channels = new Map<
    string,
    Set<{ onNotify: (payload: string) => void; onReconnect?: () => void }>
  >();
  #listener: pg.Client | undefined;
  #connecting: Promise<pg.Client> | null = null;
  #listenAttempt = 0;
  #reconnectTimer: NodeJS.Timeout | undefined;
  /** SQL text → prepared statement name (the same on every connection of the pool). */
  readonly #names = new Map<string, string>();
  closing = false;

  constructor(pool: pg.Pool, clientConfig: pg.ClientConfig) {
    this.#pool = pool;
    this.#clientConfig = clientConfig;
  }

  poolStats(): PoolStats {
    const p = this.#pool;
    return { total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount };
  }

  /**
   * LISTEN on one connection of this handle's own, shared by every channel and caller (the
   * realtime cluster, bans, ended sessions, the mail outbox: one connection per node, not one per
   * channel; a pooled one would be handed to other queries). A lost connection is replaced after
   * a short backoff, every channel is listened to again, and each `onReconnect` tells its caller
   * that notifications may have been missed.
   */
  async listen(
    channel: string,
    onNotify: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>> {
    const subscription = { onNotify, onReconnect };
    let subscribers = this.#channels.get(channel);
    const first = !subscribers;
    if (!subscribers) {
      subscribers = new Set();
      this.#channels.set(channel, subscribers);
    }
    subscribers.add(subscription);
    try {
      const client = await this.#listenerClient();
      if (first) await client.query(listenSql(channel));
    } catch (error) {
      subscribers.delete(subscription);
      if (subscribers.size === 0) this.#channels.delete(channel);
      throw error;
    }
    let stopped = false;
    const handle = {
      stop: async () => {
        if (stopped) return;
        stopped = true;
        this.#listeners.delete(handle);
        const set = this.#channels.get(channel);
        set?.delete(subscription);
        if (set && set.size === 0) {
          this.#channels.delete(channel);
          const client = this.#listener;
          if (this.#channels.size === 0) {
            this.#listener = undefined;
            await client?.end().catch(() => undefined);
          } else {
            await client?.query(`unlisten ${quoteIdent(channel)}`).catch(() => undefined);
          }
        }
      },
    };
    this.#listeners.add(handle);
    return handle.stop;
  }

  /** The shared LISTEN connection, connected (one connect at a time). */
  async #listenerClient(): Promise<pg.Client> {
    if (this.#listener) return this.#listener;
    this.#connecting ??= this.#connectListener().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  /** Connects again after a backoff, listens to every channel again, tells every caller. */
  #scheduleReconnect(): void {
    if (this.closing || this.#channels.size === 0 || this.#reconnectTimer) return;
    const delay = Math.min(5000, 100 * 2 ** this.#listenAttempt++);
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.closing || this.#channels.size === 0) return;
      this.#listenerClient()
        .then(async (client) => {
          for (const channel of this.#channels.keys()) await client.query(listenSql(channel));
          this.#listenAttempt = 0;
          for (const set of this.#channels.values()) for (const s of set) s.onReconnect?.();
        })
        .catch(() => this.#scheduleReconnect());
    }, delay);
    this.#reconnectTimer.unref();
  }

  async #connectListener(): Promise<pg.Client> {
    const next = new pg.Client(this.#clientConfig);
    next.on('notification', (message) => {
      for (const s of this.#channels.get(message.channel) ?? []) s.onNotify(message.payload ?? '');
    });
    next.on('error', () => undefined);
    next.on('end', () => {
      if (this.closing || this.#listener !== next) return;
      this.#listener = undefined;
      this.#scheduleReconnect();
    });
    await next.connect();
    this.#listener = next;
    return next;
  }

  async query<T = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
  ): Promise<QueryResult<T>> {
    return toQueryResult<T>(await this.#pool.query(sql, params));
  }

  /**
   * The query config of a statement of a transaction: a named prepared statement when it has
   * parameters (parsed and planned once per connection, then only bound: PostgREST's
   * db-prepared-statements), as long as fewer than MAX_NAMED_STATEMENTS texts have names. A
   * statement without parameters keeps the simple protocol (it may hold several statements).
   */
  #config(sql: string, params: unknown[]): pg.QueryConfig {
    if (params.length === 0) return { text: sql, values: params };
    let name = this.#names.get(sql);
    if (name === undefined && this.#names.size < MAX_NAMED_STATEMENTS) {
      name = `soundloft_${this.#names.size + 1}`;
      this.#names.set(sql, name);
    }
    return name === undefined ? { text: sql, values: params } : { name, text: sql, values: params };
  }

  /**
   * BEGIN, the prelude and then `fn`'s statements are pipelined (pool in pipeline mode): each is
   * written without waiting for the answer of the one before, so BEGIN, the request context and
   * the first statement cost one network round trip, COMMIT a second. Postgres answers in order
   * and skips everything after a failure inside the transaction (25P02), so a failed prelude
   * fails `fn`'s statements too, and its own error is the one thrown.
   */
  async transaction<T>(
    fn: (tx: Queryable) => Promise<T>,
    options: TransactionOptions = {},
  ): Promise<T> {
    const client = await this.#pool.connect();
    let broken: Error | undefined;
    try {
      const begun = corked(client, () =>
        Promise.all([
          client.query('begin'),
          ...(options.prelude ?? []).map((s) => client.query(this.#config(s.sql, s.params ?? []))),
        ]),
      );
      begun.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      const tx: Queryable = {
        query: async <R>(sql: string, params: unknown[] = []) => {
          const pending = corked(client, () => client.query(this.#config(sql, params)));
          try {
            const result = await pending;
            await begun;
            return toQueryResult<R>(result);
          } catch (error) {
            await begun; // the prelude's error first: this one is then "transaction is aborted"
            throw error;
          }
        },
      };
      const result = await fn(tx);
      await begun;
      await client.query('commit');
      broken = this.#idleOrBroken(client);
      return result;
    } catch (error) {
      broken = await this.#rollBack(client);
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** BEGIN; statements; COMMIT written at once (pipelined): one network round trip. */
  async batch(statements: Statement[]): Promise<QueryResult[]> {
    const client = await this.#pool.connect();
    let broken: Error | undefined;
    try {
      const settled = await Promise.allSettled(
        corked(client, () => [
          client.query('begin'),
          ...statements.map((s) => client.query(this.#config(s.sql, s.params ?? []))),
          client.query('commit'),
        ]),
      );
      // In order: the first failure is the cause (the statements after it fail with 25P02 and
      // COMMIT of the aborted transaction rolls it back); a failed COMMIT rolled back too.
      for (const s of settled) if (s.status === 'rejected') throw s.reason;
      broken = this.#idleOrBroken(client);
      return (settled.slice(1, -1) as PromiseFulfilledResult<pg.QueryResult>[]).map((s) =>
        toQueryResult(s.value),
      );
    } catch (error) {
      if (client.getTransactionStatus() !== 'I') broken = await this.#rollBack(client);
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /**
   * Rolls back the open transaction; the error when that fails too: the connection is unusable
   * and is dropped from the pool instead of reused.
   */
  async #rollBack(client: pg.PoolClient): Promise<Error | undefined> {
    try {
      await client.query('rollback');
      return undefined;
    } catch (rollbackError) {
      return rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    }
  }

  /**
   * After COMMIT the connection must be idle, outside any transaction: a connection still in
   * one (it would carry a request's role and claims to the next) is dropped, never reused.
   */
  #idleOrBroken(client: pg.PoolClient): Error | undefined {
    const status = client.getTransactionStatus();
    return status === 'I' ? undefined : new Error(`connection left in transaction state ${status}`);
  }

  async exec(sql: string): Promise<void> {
    // No parameters: the simple query protocol, several statements in one implicit transaction.
    await this.#pool.query(sql);
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.#reconnectTimer);
    await Promise.all([...this.#listeners].map((l) => l.stop()));
    await this.#pool.end();
  }
}

export interface PostgresOptions {
  /** Pool size (default 10). */
  max?: number;
}

/** Connects a pool to `connectionString` and checks that the server answers. */
export async function openPostgres(
  connectionString: string,
  options: PostgresOptions = {},
): Promise<Database> {
  const settings = Object.entries(SESSION_SETTINGS)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  const clientConfig: pg.ClientConfig = {
    connectionString,
    options: settings,
    types: typeParsers(),
  };
  // Pipeline mode: a query is written as soon as it is asked for, not after the answer to the
  // one before (transaction() and batch() rely on it to save round trips).
  const pool = new pg.Pool({ ...clientConfig, pipeline: true, max: options.max ?? 10 });
  const db = new PostgresDatabase(pool, clientConfig);
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => {
    if (!db.closing) console.error('PostgreSQL pool error:', error.message);
  });
  await db.query('select 1');
  return db;
}
