/** Chooses the database from the environment (DESIGN.md §3: DATABASE_URL, else PGlite in DATA_DIR). */
import { resolve } from 'node:path';
import type { Database } from './database';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

export interface DatabaseEnv {
  DATABASE_URL?: string | undefined;
  DATA_DIR?: string | undefined;
}

/** Where PGlite keeps its files: `<DATA_DIR>/pgdata`, or 'memory' when DATA_DIR=memory. */
export function pgliteLocation(env: DatabaseEnv): string | 'memory' {
  const dataDir = env.DATA_DIR?.trim() || './.data';
  if (dataDir === 'memory') return 'memory';
  return resolve(dataDir, 'pgdata');
}

/** Opens (without migrating) the database the environment asks for. */
export function openDatabase(env: DatabaseEnv = process.env): Promise<Database> {
  const url = env.DATABASE_URL?.trim();
  if (url) return openPostgres(url);
  return openPglite(pgliteLocation(env));
}
