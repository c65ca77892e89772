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
  closing = false;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
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

  close(): Promise<void> {
    this.closing = true;
    return this.#pool.end();
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
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    options: settings,
    types: typeParsers(),
  });
  const db = new PostgresDatabase(pool);
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => {
    if (!db.closing) console.error('PostgreSQL pool error:', error.message);
  });
  await db.query('select 1');
  return db;
}
