import { describe, expect, it } from 'vitest';
import type { Database } from './database';
import { execInstaller } from './install-sql';

/** A database whose exec fails with the given errors in turn, then succeeds. */
function failingThen(errors: unknown[]): { db: Database; calls: () => number } {
  let calls = 0;
  const db = {
    exec: async () => {
      const error = errors[calls++];
      if (error) throw error;
    },
  } as unknown as Database;
  return { db, calls: () => calls };
}
const concurrent = Object.assign(new Error('tuple concurrently updated'), { code: 'XX000' });

describe('execInstaller', () => {
  it('runs the script again after a concurrent catalog update', async () => {
    const { db, calls } = failingThen([concurrent, concurrent]);
    await execInstaller(db, 'select 1');
    expect(calls()).toBe(3);
  });
  it('gives up after five attempts, and never retries other errors', async () => {
    const always = failingThen(Array(10).fill(concurrent));
    await expect(execInstaller(always.db, 'select 1')).rejects.toBe(concurrent);
    expect(always.calls()).toBe(5);
    const syntax = Object.assign(new Error('syntax error'), { code: '42601' });
    const other = failingThen([syntax]);
    await expect(execInstaller(other.db, 'select 1')).rejects.toBe(syntax);
    expect(other.calls()).toBe(1);
  });
});
