/**
 * One fresh, migrated test database per test file (see test-database.ts): opened before the
 * file's tests and its own beforeAll hooks (register this first), closed after them.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Database } from './database';
import { DATABASE_HOOK_TIMEOUT_MS, openTestDatabase, type TestDatabase } from './test-database';

export function useTestDatabase(): { readonly db: Database } {
  let opened: TestDatabase | undefined;
  beforeAll(async () => {
    opened = await openTestDatabase();
  }, DATABASE_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await opened?.close();
  }, DATABASE_HOOK_TIMEOUT_MS);
  return {
    get db() {
      if (!opened) throw new Error('useTestDatabase: the database opens in beforeAll');
      return opened.db;
    },
  };
}
