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

/**
 * A test database and a second node's connection to it (TestDatabase.openAnotherNode): opened
 * before the file's tests, closed after them (the node first).
 */
export function useTwoNodes(): { readonly test: TestDatabase; readonly nodeB: Database } {
  let opened: TestDatabase | undefined;
  let other: Database | undefined;
  beforeAll(async () => {
    opened = await openTestDatabase();
    other = await opened.openAnotherNode();
  }, DATABASE_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await other?.close();
    await opened?.close();
  }, DATABASE_HOOK_TIMEOUT_MS);
  const need = <T>(value: T | undefined): T => {
    if (!value) throw new Error('useTwoNodes: the database opens in beforeAll');
    return value;
  };
  return {
    get test() {
      return need(opened);
    },
    get nodeB() {
      return need(other);
    },
  };
}
