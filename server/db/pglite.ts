/**
 * `Database` on PGlite (embedded Postgres in WebAssembly): persisted in a directory, or in memory.
 * Extensions pg_trgm, pgcrypto, unaccent and fuzzystrmatch are loaded so the migrations run unchanged.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { Database, QueryResult, Queryable, Statement, TransactionOptions } from './database';
import type { PoolStats } from './database';
import { Mutex } from './mutex';
import { RAW_TEXT_TYPE_OIDS, SESSION_SETTINGS } from './type-parsers';

const rawText = (value: string) => value;

type PGliteResults = Awaited<ReturnType<PGlite['query']>>;

function toQueryResult<T>(result: PGliteResults): QueryResult<T> {
  return {
    rows: result.rows as T[],
    fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    ...(result.affectedRows === undefined ? {} : { affectedRows: result.affectedRows }),
  };
}

export class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;
  readonly #pg: PGlite;
  readonly #lock = new Mutex();
  /** Set while a transaction's callback runs: using the database itself there would deadlock. */
  readonly #inTransaction = new AsyncLocalStorage<true>();
  #closed = false;

  constructor(pg: PGlite) {
    this.#pg = pg;
  }

  poolStats(): PoolStats {
    const held = this.#lock.held;
    return { total: 1, idle: held > 0 ? 0 : 1, waiting: Math.max(0, held - 1) };
  }

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#inTransaction.getStore()) {
      return Promise.reject(
        new Error('Inside transaction(fn), query through its tx argument, not the database'),
      );
    }
    return this.#lock.run(fn);
  }

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
    return this.#exclusive(async () => toQueryResult<T>(await this.#pg.query(sql, params)));
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.#exclusive(() =>
      this.#pg.transaction(async (tx: Transaction) => {
        const queryable: Queryable = {
          query: async <R>(sql: string, params: unknown[] = []) =>
            toQueryResult<R>(await tx.query(sql, params)),
        };
        for (const s of options.prelude ?? []) await tx.query(s.sql, s.params ?? []);
        return this.#inTransaction.run(true, () => fn(queryable));
      }),
    );
  }

  /** One transaction, the statements in turn (no network here: nothing to pipeline). */
  batch(statements: Statement[]): Promise<QueryResult[]> {
    return this.transaction(async (tx) => {
      const results: QueryResult[] = [];
      for (const s of statements) results.push(await tx.query(s.sql, s.params ?? []));
      return results;
    });
  }

  exec(sql: string): Promise<void> {
    return this.#exclusive(async () => {
      await this.#pg.exec(sql);
    });
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const stop = await this.#exclusive(() => this.#pg.listen(channel, onNotify));
    return async () => {
      if (this.#closed) return;
      await this.#exclusive(() => stop());
    };
  }

  /** The whole data directory as a tarball, to start another instance from (see openPglite). */
  dumpDataDir(): Promise<Blob> {
    return this.#exclusive(() => this.#pg.dumpDataDir('none'));
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    return this.#lock.run(() => this.#pg.close());
  }
}

export interface PgliteOptions {
  /** Start from this data directory tarball (PgliteDatabase.dumpDataDir) instead of initdb. */
  snapshot?: Blob;
}

/** Opens PGlite in `dataDir` (created if missing), or in memory when `dataDir` is 'memory'. */
export async function openPglite(
  dataDir: string | 'memory',
  options: PgliteOptions = {},
): Promise<PgliteDatabase> {
  if (dataDir !== 'memory') mkdirSync(dataDir, { recursive: true });
  const parsers = Object.fromEntries(
    Object.values(RAW_TEXT_TYPE_OIDS).map((oid) => [oid, rawText]),
  );
  const pg = await PGlite.create({
    ...(dataDir === 'memory' ? {} : { dataDir }),
    extensions: { fuzzystrmatch, pg_trgm, pgcrypto, unaccent },
    parsers,
    ...(options.snapshot ? { loadDataDir: options.snapshot } : {}),
  });
  // One connection: session settings made here hold for every later statement.
  await pg.query(`select set_config('TimeZone', $1, false), set_config('DateStyle', $2, false)`, [
    SESSION_SETTINGS.TimeZone,
    SESSION_SETTINGS.DateStyle,
  ]);
  return new PgliteDatabase(pg);
}
