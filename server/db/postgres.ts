/** `Database` on a real PostgreSQL server through a node-postgres pool (DATABASE_URL). */
import pg from 'pg';
import type { Database, QueryResult, Queryable } from './database';
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

function toQueryResult<T>(result: pg.QueryResult): QueryResult<T> {
  return {
    rows: result.rows as T[],
    fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    ...(result.rowCount === null ? {} : { affectedRows: result.rowCount }),
  };
}

class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #clientConfig: pg.ClientConfig;
  readonly #listeners = new Set<{ stop: () => Promise<void> }>();
  closing = false;

  constructor(pool: pg.Pool, clientConfig: pg.ClientConfig) {
    this.#pool = pool;
    this.#clientConfig = clientConfig;
  }

  /**
   * LISTEN on a connection of its own (a pooled one would be handed to other queries). A lost
   * connection is replaced after a short backoff, and `onReconnect` tells the caller that
   * notifications may have been missed.
   */
  async listen(
    channel: string,
    onNotify: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>> {
    let client: pg.Client | undefined;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;
    let attempt = 0;
    const connect = async (): Promise<void> => {
      const next = new pg.Client(this.#clientConfig);
      next.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      next.on('error', () => undefined);
      next.on('end', () => {
        if (stopped || this.closing || client !== next) return;
        client = undefined;
        const delay = Math.min(5000, 100 * 2 ** attempt++);
        retry = setTimeout(() => {
          connect().then(
            () => {
              attempt = 0;
              onReconnect?.();
            },
            () => next.emit('end'),
          );
        }, delay);
      });
      client = next;
      await next.connect();
      // channel is an identifier chosen by the server's code, never user input.
      await next.query(`listen "${channel.replaceAll('"', '""')}"`);
    };
    await connect();
    const handle = {
      stop: async () => {
        stopped = true;
        clearTimeout(retry);
        this.#listeners.delete(handle);
        const current = client;
        client = undefined;
        await current?.end().catch(() => undefined);
      },
    };
    this.#listeners.add(handle);
    return handle.stop;
  }

  async query<T = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
  ): Promise<QueryResult<T>> {
    return toQueryResult<T>(await this.#pool.query(sql, params));
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('begin');
      const tx: Queryable = {
        query: async <R>(sql: string, params: unknown[] = []) =>
          toQueryResult<R>(await client.query(sql, params)),
      };
      const result = await fn(tx);
      await client.query('commit');
      return result;
    } catch (error) {
      try {
        await client.query('rollback');
      } catch (rollbackError) {
        // The connection is unusable: drop it from the pool instead of reusing it.
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async exec(sql: string): Promise<void> {
    // No parameters: the simple query protocol, several statements in one implicit transaction.
    await this.#pool.query(sql);
  }

  async close(): Promise<void> {
    this.closing = true;
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
  const pool = new pg.Pool({ ...clientConfig, max: options.max ?? 10 });
  const db = new PostgresDatabase(pool, clientConfig);
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => {
    if (!db.closing) console.error('PostgreSQL pool error:', error.message);
  });
  await db.query('select 1');
  return db;
}
