/**
 * Brings a database to the current schema on every start: the bootstrap (what hosted Supabase
 * already has), then each file of supabase/migrations exactly once, in filename order, each in
 * its own transaction, recorded in supabase_migrations.schema_migrations (the Supabase CLI's table).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './database';
import { openDatabase, type DatabaseEnv } from './open-database';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../supabase/migrations', import.meta.url));
const BOOTSTRAP_FILE = fileURLToPath(new URL('./bootstrap.sql', import.meta.url));

/** `<version>_<name>.sql`, the Supabase CLI's naming. Nothing else is read as a migration. */
const MIGRATION_FILE = /^(\d{14})_([a-z0-9_]+)\.sql$/;
/** Serialises concurrent runners on one database (any constant; this one spells 'slmg'). */
const MIGRATION_LOCK_KEY = 0x736c6d67;

export interface Migration {
  version: string;
  name: string;
  file: string;
}

export function listMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => {
      const match = MIGRATION_FILE.exec(file);
      if (!match?.[1] || !match[2])
        throw new Error(`Migration file name must be <14 digits>_<name>.sql: ${file}`);
      return { version: match[1], name: match[2], file: `${dir}/${file}` };
    });
}

function sqlState(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String(error.code)
    : undefined;
}

/** Errors a concurrent bootstrap of another database in the same cluster can cause (shared roles). */
const RETRYABLE = new Set(['XX000', '23505', '42710', '40001', '40P01']);

/** Applies bootstrap.sql (idempotent). Retries when another database's bootstrap races on roles. */
export async function runBootstrap(db: Database): Promise<void> {
  const sql = readFileSync(BOOTSTRAP_FILE, 'utf8');
  for (let attempt = 1; ; attempt++) {
    try {
      await db.exec(sql);
      return;
    } catch (error) {
      if (attempt >= 5 || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

async function appliedVersions(db: Database): Promise<Set<string>> {
  const { rows } = await db.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations',
  );
  return new Set(rows.map((row) => row.version));
}

/**
 * Applies the pending migrations and returns their versions. A migration's statements and its
 * record run as one simple-protocol batch, which Postgres executes as a single transaction:
 * either all of it lands, or nothing does.
 */
export async function migrate(db: Database, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  await runBootstrap(db);
  const applied = await appliedVersions(db);
  const done: string[] = [];
  for (const migration of listMigrations(dir)) {
    if (applied.has(migration.version)) continue;
    const body = readFileSync(migration.file, 'utf8');
    // version and name are digits and [a-z0-9_] (checked by MIGRATION_FILE): safe as literals.
    const batch = [
      `select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY});`,
      body,
      ';',
      `insert into supabase_migrations.schema_migrations (version, name) values ('${migration.version}', '${migration.name}');`,
    ].join('\n');
    try {
      await db.exec(batch);
      done.push(migration.version);
    } catch (error) {
      // Another process applied it while we waited for the lock: that is success.
      if ((await appliedVersions(db)).has(migration.version)) continue;
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`Migration ${migration.version}_${migration.name} failed: ${message}`, {
        cause: error,
      });
    }
  }
  return done;
}

/** Opens the database the environment asks for (DATABASE_URL or PGlite in DATA_DIR) and migrates it. */
export async function openAndMigrate(env: DatabaseEnv = process.env): Promise<Database> {
  const db = await openDatabase(env);
  try {
    await migrate(db);
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}
