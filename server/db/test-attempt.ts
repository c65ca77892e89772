/**
 * Runs one statement as an API role inside a transaction that is always rolled back, and says
 * what happened: 'ok' (rows seen or changed), 'hidden' (RLS filtered every row), 'denied'
 * (permission error, SQLSTATE 42501) or the SQLSTATE of any other error.
 */
import type { Database, QueryResult } from './database';
import { asRole, type JwtClaims } from './as-role';

export type Outcome = 'ok' | 'hidden' | 'denied' | `error ${string}`;

class Rollback extends Error {
  constructor(readonly result: QueryResult) {
    super('rollback');
  }
}

export function sqlStateOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String(error.code)
    : undefined;
}

export async function attempt(
  db: Database,
  claims: JwtClaims | null,
  sql: string,
  params: unknown[] = [],
): Promise<Outcome> {
  try {
    await asRole(db, claims, async (tx) => {
      throw new Rollback(await tx.query(sql, params));
    });
    throw new Error('unreachable');
  } catch (error) {
    if (error instanceof Rollback) {
      const count = /^\s*select/i.test(sql)
        ? error.result.rows.length
        : (error.result.affectedRows ?? 0);
      return count > 0 ? 'ok' : 'hidden';
    }
    const code = sqlStateOf(error);
    if (code === '42501') return 'denied';
    return `error ${code ?? (error instanceof Error ? error.message : String(error))}`;
  }
}
