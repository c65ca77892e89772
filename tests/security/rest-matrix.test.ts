/**
 * Every table and view of the API schema × select / insert / update / delete × anon, owner,
 * another user, admin, over HTTP (/rest/v1), against the declared expectations
 * (expectations/tables.ts). What an operation did is read back from the database, not from
 * the answer: a 2xx that changed nothing is `hidden`, a 403 that changed something fails.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ACTORS, TABLES, type Actor, type Outcome, type RowRef } from './expectations/tables';
import { useAttackWorld, type Caller } from './support/actors';
import { evidence, json, verify, type Exchange } from './support/http';
import type { Target } from './support/target';
import type { World } from './support/world';

let t: Target;
let w: World;
let call: Caller;

const world = useAttackWorld();
beforeAll(async () => {
  ({ t, w, call } = world);
});

/** Relations the REST API serves: the public schema's tables and views, from pg_catalog. */
async function apiRelations(): Promise<string[]> {
  const { rows } = await t.db.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p', 'f') order by 1`,
  );
  return rows.map((r) => r.name);
}

async function snapshot(table: string, row: RowRef): Promise<string | null> {
  const { rows } = await t.db.query<{ j: unknown }>(
    `select to_jsonb(x) as j from public.${table} x where ${row.where}`,
    row.params,
  );
  return rows[0] ? JSON.stringify(rows[0].j) : null;
}

const denied = (x: Exchange) => x.status === 401 || x.status === 403;
const other = (x: Exchange): Outcome => `answered ${x.status}` as Outcome;

async function attempt(
  table: string,
  op: 'select' | 'insert' | 'update' | 'delete',
  actor: Actor,
): Promise<{ outcome: Outcome; x: Exchange }> {
  const c = TABLES[table]!;
  const cols = encodeURIComponent(c.columns ?? '*');
  if (op === 'select') {
    const row = await c.row(w);
    const x = await call(actor, 'GET', `/rest/v1/${table}?select=${cols}&${row.filter}`);
    if (x.status === 200) return { outcome: json<unknown[]>(x).length ? 'ok' : 'hidden', x };
    return { outcome: denied(x) ? 'denied' : other(x), x };
  }
  if (op === 'insert') {
    const body = JSON.stringify(await c.insert(w));
    const x = await call(actor, 'POST', `/rest/v1/${table}`, {
      body,
      headers: { Prefer: 'return=minimal' },
    });
    if (x.status === 201) return { outcome: 'ok', x };
    if (x.status === 409) return { outcome: 'conflict', x };
    return { outcome: denied(x) ? 'denied' : other(x), x };
  }
  const row = await c.row(w);
  const before = await snapshot(table, row);
  const x =
    op === 'update'
      ? await call(actor, 'PATCH', `/rest/v1/${table}?${row.filter}`, {
          body: JSON.stringify(c.update(w)),
        })
      : await call(actor, 'DELETE', `/rest/v1/${table}?${row.filter}`);
  const after = await snapshot(table, row);
  const changed = before !== after;
  if (x.status >= 200 && x.status < 300) return { outcome: changed ? 'ok' : 'hidden', x };
  if (changed) return { outcome: `changed the row although it answered ${x.status}` as Outcome, x };
  return { outcome: denied(x) ? 'denied' : other(x), x };
}

describe(`REST matrix: every relation × operation × actor`, () => {
  it('declares expectations for every table and view of the API schema (pg_catalog)', async () => {
    const relations = await apiRelations();
    const missing = relations.filter((r) => !(r in TABLES));
    const gone = Object.keys(TABLES).filter((r) => !relations.includes(r));
    expect(
      { missing, gone },
      `declare these in tests/security/expectations/tables.ts (docs/security.md)`,
    ).toEqual({ missing: [], gone: [] });
  });

  for (const table of Object.keys(TABLES)) {
    for (const op of ['select', 'insert', 'update', 'delete'] as const) {
      const expected = TABLES[table]!.expect[op];
      it(`${table} ${op}: ${ACTORS.map((a, i) => `${a} ${expected[i]}`).join(', ')}`, async () => {
        const failures: string[] = [];
        for (const [i, actor] of ACTORS.entries()) {
          const { outcome, x } = await attempt(table, op, actor);
          if (outcome !== expected[i])
            failures.push(
              `${table} ${op} as ${actor}: expected ${expected[i]}, got ${outcome}\n${evidence(x)}`,
            );
        }
        verify(failures.length === 0, failures.join('\n\n'));
      });
    }
  }
});
