/**
 * Private channels, authorised by RLS policies on `realtime.messages` exactly as Supabase
 * Realtime does (`Realtime.Tenants.Authorization`): the role, `realtime.topic` and the JWT claims
 * are set, then
 * - read: probe rows (one per extension: broadcast, presence) are inserted as the server, and the
 *   ones the caller's select returns are the extensions it may read;
 * - write: a row per extension is inserted as the caller; an `insufficient_privilege` error means
 *   it may not write.
 * Every transaction is rolled back: nothing stays in the table.
 */
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import type { JwtClaims } from '../db/as-role';

export type Extension = 'broadcast' | 'presence';

export interface Policies {
  broadcast: { read?: boolean; write?: boolean };
  presence: { read?: boolean; write?: boolean };
}

export function emptyPolicies(): Policies {
  return { broadcast: {}, presence: {} };
}

class Rollback extends Error {}

/** Runs `fn` in a transaction that is always rolled back, and returns what it returned. */
async function rolledBack<T>(db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  let result: T | undefined;
  try {
    await db.transaction(async (tx) => {
      result = await fn(tx);
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return result as T;
}

/** Realtime's `set_conn_config`: role, topic, claims, sub and role claims, headers. */
async function setContext(tx: Queryable, claims: JwtClaims, topic: string): Promise<void> {
  const role = typeof claims.role === 'string' ? claims.role : 'anon';
  await tx.query(
    `select set_config('role', $1, true),
            set_config('realtime.topic', $2, true),
            set_config('request.jwt.claims', $3, true),
            set_config('request.jwt.claim.sub', $4, true),
            set_config('request.jwt.claim.role', $1, true),
            set_config('request.headers', '{}', true)`,
    [role, topic, JSON.stringify(claims), typeof claims.sub === 'string' ? claims.sub : ''],
  );
}

/** Which extensions the caller may read on `topic` (the channel name without `realtime:`). */
export async function readPolicies(
  db: Database,
  claims: JwtClaims,
  topic: string,
  extensions: Extension[],
  policies: Policies = emptyPolicies(),
): Promise<Policies> {
  const probes = extensions.map((extension) => ({ extension, id: randomUUID() }));
  const readable = await rolledBack(db, async (tx) => {
    for (const { extension, id } of probes) {
      await tx.query(`insert into realtime.messages (id, topic, extension) values ($1, $2, $3)`, [
        id,
        topic,
        extension,
      ]);
    }
    await setContext(tx, claims, topic);
    const { rows } = await tx.query<{ id: string }>(
      `select id::text as id from realtime.messages where id = any($1::uuid[])`,
      [probes.map((p) => p.id)],
    );
    return new Set(rows.map((r) => r.id));
  });
  const out: Policies = {
    broadcast: { ...policies.broadcast },
    presence: { ...policies.presence },
  };
  for (const { extension, id } of probes) out[extension].read = readable.has(id);
  return out;
}

/** Whether the caller may write `extension` messages on `topic`. */
export async function mayWrite(
  db: Database,
  claims: JwtClaims,
  topic: string,
  extension: Extension,
): Promise<boolean> {
  return rolledBack(db, async (tx) => {
    await setContext(tx, claims, topic);
    try {
      await tx.query(`insert into realtime.messages (topic, extension) values ($1, $2)`, [
        topic,
        extension,
      ]);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === '42501') return false;
      throw error;
    }
  });
}
