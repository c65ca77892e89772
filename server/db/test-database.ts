/**
 * Fresh, migrated databases for tests: in-memory PGlite, or, when TEST_DATABASE_URL is set, a
 * uniquely named database created in that PostgreSQL server and dropped by close().
 *
 * PGlite spends most of its start in initdb; tests start from a snapshot of a migrated data
 * directory instead, cached in the OS temp dir under a hash of the bootstrap, the migrations and
 * the PGlite version (about 1 s per database instead of 3 s).
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database';
import { listMigrations, migrate } from './migrate';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

/** For beforeAll/afterAll hooks that open or close a test database (slow on a busy machine). */
export const DATABASE_HOOK_TIMEOUT_MS = 180_000;

export interface TestDatabase {
  db: Database;
  /**
   * Another connection to the same database, as a second node of a cluster has (its own pool
   * on PostgreSQL; on PGlite, one process, the same database). Closed by the caller.
   */
  openAnotherNode(): Promise<Database>;
  /** Its URL on PostgreSQL (for a node in another process); null on PGlite. */
  url: string | null;
  close(): Promise<void>;
}

export function testDatabaseKind(env: NodeJS.ProcessEnv = process.env): 'pglite' | 'postgres' {
  return env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
}

async function openPostgresTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `soundloft_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const admin = await openPostgres(serverUrl, { max: 1 });
  // name is generated above from digits and hex: safe to quote as an identifier.
  await admin.exec(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let db: Database;
  try {
    db = await openPostgres(url.toString());
  } catch (error) {
    await admin.exec(`drop database if exists "${name}"`);
    await admin.close();
    throw error;
  }
  return {
    db,
    openAnotherNode: () => openPostgres(url.toString()),
    url: url.toString(),
    async close() {
      await db.close();
      await admin.exec(`drop database if exists "${name}" with (force)`);
      await admin.close();
    },
  };
}

const SNAPSHOT_PREFIX = 'soundloft-pglite-migrated-';

function snapshotKey(): string {
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  // The package's exports hide package.json: find it next to the resolved entry's dist/ folder.
  hash.update(
    readFileSync(join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json')),
  );
  hash.update(readFileSync(fileURLToPath(new URL('./bootstrap.sql', import.meta.url))));
  for (const migration of listMigrations())
    hash.update(migration.file).update(readFileSync(migration.file));
  return hash.digest('hex').slice(0, 16);
}

const SNAPSHOT_FILE = new RegExp(`^${SNAPSHOT_PREFIX}[0-9a-f]{16}\\.tar$`);
/** A lock older than this belongs to a crashed builder. */
const STALE_LOCK_MS = 120_000;

/** Takes the build lock (an exclusively created file); false when another process holds it. */
function tryLock(lock: string): boolean {
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
    } catch {
      // released meanwhile
    }
    return false;
  }
}

async function buildSnapshot(file: string): Promise<Blob> {
  const db = await openPglite('memory');
  try {
    await migrate(db);
    const dump = await db.dumpDataDir();
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
    renameSync(partial, file); // atomic: readers never see half a snapshot
    for (const old of readdirSync(tmpdir())) {
      if (SNAPSHOT_FILE.test(old) && join(tmpdir(), old) !== file)
        rmSync(join(tmpdir(), old), { force: true });
    }
    return dump;
  } finally {
    await db.close();
  }
}

/**
 * A migrated PGlite data directory, built once per schema version (by one test process while
 * the others wait) and kept in the temp dir.
 */
async function migratedSnapshot(): Promise<Blob> {
  const file = join(tmpdir(), `${SNAPSHOT_PREFIX}${snapshotKey()}.tar`);
  const lock = `${file}.lock`;
  for (;;) {
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    if (tryLock(lock)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    return existsSync(file) ? new Blob([readFileSync(file)]) : await buildSnapshot(file);
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Opens a fresh database with bootstrap and migrations applied. */
export async function openTestDatabase(
  env: NodeJS.ProcessEnv = process.env,
): Promise<TestDatabase> {
  let test: TestDatabase;
  if (env.TEST_DATABASE_URL) {
    test = await openPostgresTestDatabase(env.TEST_DATABASE_URL);
  } else {
    const db = await openPglite('memory', { snapshot: await migratedSnapshot() });
    const sameDatabase: Database = {
      kind: db.kind,
      query: (sql, params) => db.query(sql, params),
      transaction: (fn, options) => db.transaction(fn, options),
      batch: (statements) => db.batch(statements),
      exec: (sql) => db.exec(sql),
      listen: (channel, onNotify) => db.listen(channel, onNotify),
      close: async () => undefined,
    };
    test = { db, openAnotherNode: async () => sameDatabase, url: null, close: () => db.close() };
  }
  try {
    await migrate(test.db); // a no-op on a snapshot; the real thing on PostgreSQL
  } catch (error) {
    await test.close();
    throw error;
  }
  return test;
}

/** Closes nodes and databases one after another (a node before the database it serves). */
export async function closeInOrder(
  ...items: ({ close(): Promise<void> } | undefined)[]
): Promise<void> {
  for (const item of items) await item?.close();
}

/**
 * Migrates `db` with the migrations older than `version` only: the state a data migration
 * starts from, for tests that insert old rows and then run the rest (`migrate(db)`).
 */
export async function migrateBefore(db: Database, version: string): Promise<void> {
  const before = mkdtempSync(join(tmpdir(), 'soundloft-migrations-before-'));
  try {
    for (const m of listMigrations()) {
      if (m.version < version) cpSync(m.file, join(before, `${m.version}_${m.name}.sql`));
    }
    await migrate(db, before);
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
}
