/**
 * Runs an idempotent installer script (realtime's capture.sql and cluster.sql) that several nodes
 * may run at once on one PostgreSQL. The scripts take an advisory transaction lock first, so one
 * installer runs at a time; but waiting on an advisory lock does not make the session read the
 * catalog changes the other installer committed meanwhile (only relation locks and a new
 * transaction do), so its `create or replace` / `revoke` can still meet a catalog row updated
 * under it: PostgreSQL's "tuple concurrently updated" (XX000). A new transaction sees the change,
 * so the script is simply run again (seen once in CI's multi-node test: two web nodes starting
 * together).
 */
import type { Database } from './database';

const ATTEMPTS = 5;

function isConcurrentCatalogUpdate(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === 'XX000' && /tuple concurrently (updated|deleted)/.test(e.message ?? '');
}

export async function execInstaller(db: Database, sql: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.exec(sql);
      return;
    } catch (error) {
      if (attempt >= ATTEMPTS || !isConcurrentCatalogUpdate(error)) throw error;
    }
  }
}
