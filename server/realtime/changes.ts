/**
 * Row changes of the published tables, delivered to `postgres_changes` subscriptions only when
 * the subscriber may select the row under RLS at that moment (as Supabase Realtime's
 * `realtime.apply_rls` does).
 *
 * capture.sql's triggers NOTIFY `{schema, table, op, primary key}` after each commit. Changes are
 * handled in batches: the changed rows are read once (as the server), each subscription's filters
 * are checked on them, and then, in ONE transaction, the rows that passed are selected again as
 * each candidate recipient (its role and JWT claims, its granted columns only): what that select
 * returns is what the recipient receives. Deletes carry the primary key only, like Realtime does
 * for tables with RLS (a deleted row cannot be checked against a policy).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database, Queryable } from '../db/database';
import { applyRequestContext, type JwtClaims } from '../db/as-role';
import { matchesFilters, type Filter } from './filters';

const CAPTURE_SQL = fileURLToPath(new URL('./capture.sql', import.meta.url));
export const NOTIFY_CHANNEL = 'embedded_realtime';

export type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE';

export interface Change {
  schema: string;
  table: string;
  type: ChangeType;
  keys: Record<string, unknown>;
  commitTimestamp: string;
}

/** Who receives: the claims of the channel's access token (mutable: `access_token` updates it). */
export interface Viewer {
  claims: JwtClaims;
}

export interface PgSubscription {
  id: number;
  /** '*' or one type. */
  event: '*' | ChangeType;
  schema: string;
  /** undefined: every published table of the schema. */
  table?: string;
  filters: Filter[];
  viewer: Viewer;
  /** One change this subscription may see: the message's `data`. */
  deliver: (data: ChangePayload, subscriptionIds: number[]) => void;
  /** Subscriptions delivered together (one channel): one message carries all their ids. */
  group: object;
}

export interface ChangePayload {
  schema: string;
  table: string;
  commit_timestamp: string;
  type: ChangeType;
  columns: { name: string; type: string }[];
  record?: Record<string, unknown>;
  old_record?: Record<string, unknown>;
  errors: string[] | null;
}

interface TableInfo {
  schema: string;
  table: string;
  primaryKey: string[];
  columns: { name: string; type: string }[];
  rls: boolean;
}

function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function keyOf(table: TableInfo, row: Record<string, unknown>): string {
  return JSON.stringify(table.primaryKey.map((c) => row[c] ?? null));
}

function roleOf(claims: JwtClaims): string {
  return typeof claims.role === 'string' && claims.role ? claims.role : 'anon';
}

export interface ChangeStats {
  /** Changes received from the database. */
  received: number;
  /** Messages handed to channels. */
  delivered: number;
}

export class ChangeStream {
  readonly #db: Database;
  readonly #subscriptions = new Set<PgSubscription>();
  readonly #tables = new Map<string, Promise<TableInfo | null>>();
  /** Selectable columns per role and table (column grants). */
  readonly #columnGrants = new Map<string, Promise<Set<string>>>();
  #queue: Change[] = [];
  #running: Promise<void> | null = null;
  #stopListening: (() => Promise<void>) | null = null;
  #closed = false;
  readonly stats: ChangeStats = { received: 0, delivered: 0 };
  /** Errors while delivering (logged by the owner; delivery goes on with the next batch). */
  onError: (error: unknown) => void = (error) => console.error('realtime:', error);

  constructor(db: Database) {
    this.#db = db;
  }

  /** Installs the capture triggers and starts listening. */
  async start(): Promise<void> {
    await this.#db.exec(readFileSync(CAPTURE_SQL, 'utf8'));
    this.#stopListening = await this.#db.listen(NOTIFY_CHANNEL, (payload) =>
      this.#receive(payload),
    );
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#stopListening?.();
    this.#stopListening = null;
    await this.#running;
  }

  /** Waits until every change received so far has been delivered (tests, benches). */
  async drain(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Table metadata, or null when there is no such table. Cached. */
  table(schema: string, table: string): Promise<TableInfo | null> {
    const key = `${schema}.${table}`;
    let info = this.#tables.get(key);
    if (!info) {
      info = this.#loadTable(schema, table);
      this.#tables.set(key, info);
      info.catch(() => this.#tables.delete(key));
    }
    return info;
  }

  async #loadTable(schema: string, table: string): Promise<TableInfo | null> {
    const { rows } = await this.#db.query<{
      columns: { name: string; type: string }[];
      pk: string[] | null;
      rls: boolean;
    }>(
      `select
         (select json_agg(json_build_object('name', a.attname, 'type', t.typname) order by a.attnum)
            from pg_catalog.pg_attribute a join pg_catalog.pg_type t on t.oid = a.atttypid
           where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
         (select array_agg(a.attname::text order by k.ord)
            from pg_catalog.pg_constraint con
            cross join lateral unnest(con.conkey) with ordinality as k(attnum, ord)
            join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum
           where con.conrelid = c.oid and con.contype = 'p') as pk,
         c.relrowsecurity as rls
       from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p')`,
      [schema, table],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      schema,
      table,
      primaryKey: row.pk ?? [],
      columns: row.columns ?? [],
      rls: row.rls,
    };
  }

  /** The published tables of a schema (for a subscription without a table). */
  async publishedTables(schema: string): Promise<string[]> {
    const { rows } = await this.#db.query<{ tablename: string }>(
      `select tablename from pg_catalog.pg_publication_tables
        where pubname = 'supabase_realtime' and schemaname = $1`,
      [schema],
    );
    return rows.map((r) => r.tablename);
  }

  #grants(role: string, table: TableInfo): Promise<Set<string>> {
    const key = `${role}\u0000${table.schema}.${table.table}`;
    let grants = this.#columnGrants.get(key);
    if (!grants) {
      grants = this.#db
        .query<{ name: string }>(
          `select a.attname::text as name from pg_catalog.pg_attribute a
            where a.attrelid = format('%I.%I', $2::text, $3::text)::regclass and a.attnum > 0
              and not a.attisdropped and has_column_privilege($1, a.attrelid, a.attnum, 'SELECT')`,
          [role, table.schema, table.table],
        )
        .then(({ rows }) => new Set(rows.map((r) => r.name)));
      this.#columnGrants.set(key, grants);
      grants.catch(() => this.#columnGrants.delete(key));
    }
    return grants;
  }

  subscribe(subscription: PgSubscription): void {
    this.#subscriptions.add(subscription);
  }

  unsubscribe(subscription: PgSubscription): void {
    this.#subscriptions.delete(subscription);
  }

  get subscriptionCount(): number {
    return this.#subscriptions.size;
  }

  #receive(payload: string): void {
    if (this.#closed) return;
    let parsed: { s: string; t: string; a: ChangeType; k: Record<string, unknown>; ts: string };
    try {
      parsed = JSON.parse(payload) as typeof parsed;
    } catch {
      return;
    }
    this.stats.received++;
    // Nobody listens: nothing to read (the common case for a change nobody subscribed to).
    if (this.#subscriptions.size === 0) return;
    this.#queue.push({
      schema: parsed.s,
      table: parsed.t,
      type: parsed.a,
      keys: parsed.k,
      commitTimestamp: parsed.ts,
    });
    this.#schedule();
  }

  #schedule(): void {
    if (this.#running) return;
    this.#running = (async () => {
      // Let the notifications of the same commit arrive, then take them as one batch.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.#queue.length > 0 && !this.#closed) {
        const batch = this.#queue.splice(0, 1000);
        try {
          await this.#deliver(batch);
        } catch (error) {
          this.onError(error);
        }
      }
    })().finally(() => {
      this.#running = null;
    });
  }

  async #deliver(batch: Change[]): Promise<void> {
    // 1. Which subscriptions want which changes (by table and event).
    const byTable = new Map<string, Change[]>();
    for (const change of batch) {
      const key = `${change.schema}.${change.table}`;
      const list = byTable.get(key);
      if (list) list.push(change);
      else byTable.set(key, [change]);
    }
    const subscriptions = [...this.#subscriptions];

    interface Candidate {
      change: Change;
      row: Record<string, unknown> | null;
      subscriptions: PgSubscription[];
    }
    // Candidates per viewer (claims object identity is per channel; key by role + claims).
    const perViewer = new Map<string, { claims: JwtClaims; candidates: Candidate[] }>();

    for (const [, changes] of byTable) {
      const first = changes[0] as Change;
      const wanting = subscriptions.filter(
        (s) => s.schema === first.schema && (s.table === undefined || s.table === first.table),
      );
      if (wanting.length === 0) continue;
      const table = await this.table(first.schema, first.table);
      if (!table || table.primaryKey.length === 0) continue;

      // 2. The rows as they are now, read once as the server, for the filters.
      const live = changes.filter((c) => c.type !== 'DELETE').map((c) => c.keys);
      const current = new Map<string, Record<string, unknown>>();
      if (live.length > 0) {
        const rows = await this.#readRows(this.#db, table, live, null);
        for (const row of rows) current.set(keyOf(table, row), row);
      }

      for (const change of changes) {
        const row = change.type === 'DELETE' ? change.keys : current.get(keyOf(table, change.keys));
        if (!row) continue; // gone since: its delete follows
        for (const s of wanting) {
          if (s.event !== '*' && s.event !== change.type) continue;
          if (!matchesFilters(s.filters, row)) continue;
          const claims = s.viewer.claims;
          const viewerKey = `${roleOf(claims)}\u0000${JSON.stringify(claims)}`;
          let viewer = perViewer.get(viewerKey);
          if (!viewer) {
            viewer = { claims, candidates: [] };
            perViewer.set(viewerKey, viewer);
          }
          const last = viewer.candidates[viewer.candidates.length - 1];
          if (last && last.change === change) last.subscriptions.push(s);
          else viewer.candidates.push({ change, row, subscriptions: [s] });
        }
      }
    }
    if (perViewer.size === 0) return;
    // Column grants are read outside the transaction (PGlite has one connection).
    for (const viewer of perViewer.values()) {
      for (const { change } of viewer.candidates) {
        const table = await this.table(change.schema, change.table);
        if (table) await this.#grants(roleOf(viewer.claims), table);
      }
    }

    // 3. Each viewer's own view of the candidate rows: one transaction for the batch; if a
    // viewer's select fails (a policy raising), each viewer again in its own transaction.
    const visible = new Map<string, Map<string, Record<string, unknown>>>();
    try {
      await this.#db.transaction(async (tx) => {
        for (const [viewerKey, viewer] of perViewer)
          visible.set(viewerKey, await this.#viewerRows(tx, viewer.claims, viewer.candidates));
      });
    } catch {
      visible.clear();
      for (const [viewerKey, viewer] of perViewer) {
        try {
          const rows = await this.#db.transaction((tx) =>
            this.#viewerRows(tx, viewer.claims, viewer.candidates),
          );
          visible.set(viewerKey, rows);
        } catch (error) {
          this.onError(error);
        }
      }
    }

    // 4. Deliver, one message per channel and change.
    for (const [viewerKey, viewer] of perViewer) {
      const seen = visible.get(viewerKey);
      const role = roleOf(viewer.claims);
      for (const candidate of viewer.candidates) {
        const { change } = candidate;
        const table = await this.table(change.schema, change.table);
        if (!table) continue;
        const grants = await this.#grants(role, table);
        let record: Record<string, unknown> | undefined;
        if (change.type !== 'DELETE') {
          record = seen?.get(`${change.schema}.${change.table}\u0000${keyOf(table, change.keys)}`);
          if (!record) continue; // RLS or grants hide it from this viewer
        } else if (!table.primaryKey.every((c) => grants.has(c))) {
          continue;
        }
        const data: ChangePayload = {
          schema: change.schema,
          table: change.table,
          commit_timestamp: change.commitTimestamp,
          type: change.type,
          columns: table.columns.filter((c) => grants.has(c.name)),
          ...(record ? { record } : {}),
          ...(change.type === 'INSERT' ? {} : { old_record: change.keys }),
          errors: null,
        };
        const groups = new Map<object, PgSubscription[]>();
        for (const s of candidate.subscriptions) {
          const list = groups.get(s.group);
          if (list) list.push(s);
          else groups.set(s.group, [s]);
        }
        for (const [, subs] of groups) {
          const ids = [...new Set(subs.map((s) => s.id))];
          (subs[0] as PgSubscription).deliver(data, ids);
          this.stats.delivered++;
        }
      }
    }
  }

  /** What one viewer may see of its candidate rows (keyed `schema.table NUL primary key`). */
  async #viewerRows(
    tx: Queryable,
    claims: JwtClaims,
    candidates: { change: Change }[],
  ): Promise<Map<string, Record<string, unknown>>> {
    const role = roleOf(claims);
    const seen = new Map<string, Record<string, unknown>>();
    const byTableKeys = new Map<string, Record<string, unknown>[]>();
    for (const { change } of candidates) {
      if (change.type === 'DELETE') continue;
      const key = `${change.schema}.${change.table}`;
      const list = byTableKeys.get(key);
      if (list) list.push(change.keys);
      else byTableKeys.set(key, [change.keys]);
    }
    if (byTableKeys.size === 0) return seen;
    await applyRequestContext(tx, claims, { method: 'GET', path: '/realtime/v1/websocket' });
    for (const [tableKey, keys] of byTableKeys) {
      const [schema, name] = splitTableKey(tableKey);
      const table = await this.table(schema, name);
      if (!table) continue;
      const grants = await this.#grants(role, table);
      if (!table.primaryKey.every((c) => grants.has(c))) continue;
      for (const row of await this.#readRows(tx, table, keys, grants))
        seen.set(`${tableKey}\u0000${keyOf(table, row)}`, row);
    }
    return seen;
  }

  /**
   * The rows with these primary keys: every column as the server (grants = null), or only the
   * granted columns under the current role (RLS applies).
   */
  async #readRows(
    q: Queryable,
    table: TableInfo,
    keys: Record<string, unknown>[],
    grants: Set<string> | null,
  ): Promise<Record<string, unknown>[]> {
    const name = `${ident(table.schema)}.${ident(table.table)}`;
    const cols = grants
      ? table.columns.filter((c) => grants.has(c.name)).map((c) => `t.${ident(c.name)}`)
      : ['t.*'];
    const pk = table.primaryKey.map(ident);
    const sql = `select to_jsonb(x) as r from (select ${cols.join(', ')} from ${name} t
      where (${pk.map((c) => `t.${c}`).join(', ')}) in
        (select ${pk.map((c) => `k.${c}`).join(', ')} from jsonb_populate_recordset(null::${name}, $1::jsonb) k)) x`;
    const { rows } = await q.query<{ r: Record<string, unknown> }>(sql, [JSON.stringify(keys)]);
    return rows.map((r) => r.r);
  }
}

function splitTableKey(key: string): [string, string] {
  const dot = key.indexOf('.');
  return [key.slice(0, dot), key.slice(dot + 1)];
}
