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
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database, Queryable } from '../db/database';
import { execInstaller } from '../db/install-sql';
import type { JwtClaims } from '../db/as-role';
import { matchesFilters, type Filter } from './filters';

const CAPTURE_SQL = fileURLToPath(new URL('./capture.sql', import.meta.url));
export const NOTIFY_CHANNEL = 'embedded_realtime';

export type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE';

export interface Change {
  schema: string;
  table: string;
  type: ChangeType;
  keys: Record<string, unknown>;
  /** The new row as the trigger saw it (absent for deletes and rows too large to notify). */
  row?: Record<string, unknown>;
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

interface TableView {
  /** The columns the role may select (the message's `columns`). */
  columns: { name: string; type: string }[];
  /** The select visible_rows runs as the viewer, or null when the role may not select the key. */
  sql: string | null;
  /** Its prepared statement's name (from a hash of the SQL). */
  name: string;
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
  /** Subscriptions by `schema.table` (`schema.*`: every published table of the schema). */
  readonly #byTable = new Map<string, Set<PgSubscription>>();
  readonly #tables = new Map<string, Promise<TableInfo | null>>();
  /** Selectable columns per role and table (column grants). */
  readonly #columnGrants = new Map<string, Promise<Set<string>>>();
  readonly #views = new Map<string, Promise<TableView>>();
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
    await execInstaller(this.#db, readFileSync(CAPTURE_SQL, 'utf8'));
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
    const key = `${subscription.schema}.${subscription.table ?? '*'}`;
    let set = this.#byTable.get(key);
    if (!set) {
      set = new Set();
      this.#byTable.set(key, set);
    }
    set.add(subscription);
  }

  unsubscribe(subscription: PgSubscription): void {
    this.#subscriptions.delete(subscription);
    const key = `${subscription.schema}.${subscription.table ?? '*'}`;
    const set = this.#byTable.get(key);
    set?.delete(subscription);
    if (set?.size === 0) this.#byTable.delete(key);
  }

  get subscriptionCount(): number {
    return this.#subscriptions.size;
  }

  #receive(payload: string): void {
    if (this.#closed) return;
    let parsed: {
      s: string;
      t: string;
      a: ChangeType;
      k: Record<string, unknown>;
      r?: Record<string, unknown>;
      ts: string;
    };
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
      ...(parsed.r ? { row: parsed.r } : {}),
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

    interface Candidate {
      change: Change;
      table: TableInfo;
      subscriptions: PgSubscription[];
    }
    // Candidates per viewer: channels whose tokens carry the same claims are checked once.
    const perViewer = new Map<string, { claims: JwtClaims; candidates: Candidate[] }>();

    for (const [key, changes] of byTable) {
      const first = changes[0] as Change;
      const wanting = [
        ...(this.#byTable.get(key) ?? []),
        ...(this.#byTable.get(`${first.schema}.*`) ?? []),
      ];
      if (wanting.length === 0) continue;
      const table = await this.table(first.schema, first.table);
      if (!table || table.primaryKey.length === 0) continue;

      // 2. The rows for the filters: as the trigger sent them, else read once as the server.
      const missing = changes.filter((c) => c.type !== 'DELETE' && !c.row).map((c) => c.keys);
      const current = new Map<string, Record<string, unknown>>();
      if (missing.length > 0) {
        for (const row of await this.#readRows(this.#db, table, missing))
          current.set(keyOf(table, row), row);
      }

      for (const change of changes) {
        const row =
          change.type === 'DELETE'
            ? change.keys
            : (change.row ?? current.get(keyOf(table, change.keys)));
        if (!row) continue; // gone since: its delete follows
        for (const s of wanting) {
          if (s.event !== '*' && s.event !== change.type) continue;
          if (!matchesFilters(s.filters, row)) continue;
          const claims = s.viewer.claims;
          const viewerKey = viewerKeyOf(claims);
          let viewer = perViewer.get(viewerKey);
          if (!viewer) {
            viewer = { claims, candidates: [] };
            perViewer.set(viewerKey, viewer);
          }
          const last = viewer.candidates[viewer.candidates.length - 1];
          if (last && last.change === change) last.subscriptions.push(s);
          else viewer.candidates.push({ change, table, subscriptions: [s] });
        }
      }
    }
    if (perViewer.size === 0) return;

    // 3. Each viewer's own view of its candidate rows, all viewers in ONE statement
    // (capture.sql's visible_rows: per viewer, its role and claims, then its prepared selects).
    // Viewers of one role follow each other: a prepared plan is re-planned when the role changes.
    const viewers = [...perViewer.values()].sort((a, b) =>
      roleOf(a.claims) < roleOf(b.claims) ? -1 : roleOf(a.claims) > roleOf(b.claims) ? 1 : 0,
    );
    const statements = new Map<string, { index: number; sql: string }>();
    const reads: TableInfo[][] = [];
    const recipients: {
      role: string;
      claims: JwtClaims;
      reads: { statement: number; keys: unknown[] }[];
    }[] = [];
    for (const viewer of viewers) {
      const role = roleOf(viewer.claims);
      const byRead = new Map<string, { table: TableInfo; statement: number; keys: unknown[] }>();
      for (const { change, table } of viewer.candidates) {
        if (change.type === 'DELETE') continue;
        const view = await this.#view(role, table);
        if (!view.sql) continue; // the role may not select the key: nothing to check
        let read = byRead.get(view.name);
        if (!read) {
          let statement = statements.get(view.name);
          if (!statement) {
            statement = { index: statements.size, sql: view.sql };
            statements.set(view.name, statement);
          }
          read = { table, statement: statement.index, keys: [] };
          byRead.set(view.name, read);
        }
        read.keys.push(change.keys);
      }
      const list = [...byRead.values()];
      reads.push(list.map(({ table }) => table));
      recipients.push({
        role,
        claims: viewer.claims,
        reads: list.map(({ statement, keys }) => ({ statement, keys })),
      });
    }
    const visible = viewers.map(() => new Map<string, Record<string, unknown>>());
    if (statements.size > 0) {
      const request = {
        statements: [...statements].map(([name, { sql }]) => ({ name, sql })),
        recipients,
      };
      const { rows } = await this.#db.query<{
        recipient: number;
        read: number | null;
        row_data: Record<string, unknown> | null;
        error: string | null;
      }>('select recipient, read, row_data, error from embedded_realtime.visible_rows($1::jsonb)', [
        JSON.stringify(request),
      ]);
      for (const r of rows) {
        if (r.error !== null) {
          this.onError(new Error(`a recipient's select failed: ${r.error}`));
          continue;
        }
        const table = reads[r.recipient]?.[r.read ?? -1];
        if (!table || !r.row_data) continue;
        visible[r.recipient]?.set(
          `${table.schema}.${table.table}\u0000${keyOf(table, r.row_data)}`,
          r.row_data,
        );
      }
    }

    // 4. Deliver, one message per channel and change.
    for (const [index, viewer] of viewers.entries()) {
      const seen = visible[index];
      const role = roleOf(viewer.claims);
      for (const candidate of viewer.candidates) {
        const { change, table } = candidate;
        const view = await this.#view(role, table);
        let record: Record<string, unknown> | undefined;
        if (change.type !== 'DELETE') {
          record = seen?.get(`${change.schema}.${change.table}\u0000${keyOf(table, change.keys)}`);
          if (!record) continue; // RLS or grants hide it from this viewer
        } else if (!view.sql) {
          continue;
        }
        const data: ChangePayload = {
          schema: change.schema,
          table: change.table,
          commit_timestamp: change.commitTimestamp,
          type: change.type,
          columns: view.columns,
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

  /**
   * What a role may see of a table: its granted columns, and the select of those columns by
   * primary key that visible_rows runs as the viewer (null when the role may not select every
   * key column: then nothing of the table is delivered to it, not even deletes). Cached.
   */
  #view(role: string, table: TableInfo): Promise<TableView> {
    const key = `${role}\u0000${table.schema}.${table.table}`;
    let view = this.#views.get(key);
    if (!view) {
      view = this.#grants(role, table).then((grants) => {
        const columns = table.columns.filter((c) => grants.has(c.name));
        const sql = table.primaryKey.every((c) => grants.has(c))
          ? selectByKeysSql(
              table,
              columns.map((c) => c.name),
            )
          : null;
        const hash = createHash('sha256')
          .update(sql ?? '')
          .digest('hex');
        return { columns, sql, name: `embedded_realtime_${hash.slice(0, 24)}` };
      });
      this.#views.set(key, view);
      view.catch(() => this.#views.delete(key));
    }
    return view;
  }

  /** The rows with these primary keys, every column, as the server (for the filters). */
  async #readRows(
    q: Queryable,
    table: TableInfo,
    keys: Record<string, unknown>[],
  ): Promise<Record<string, unknown>[]> {
    const { rows } = await q.query<{ r: Record<string, unknown> }>(selectByKeysSql(table, null), [
      JSON.stringify(keys),
    ]);
    return rows.map((r) => r.r);
  }
}

/**
 * The rows whose primary keys are in $1 (a JSON array of key objects), as one column `r` (the row
 * as JSON); `columns` null: every column. One index lookup per key (the lateral subquery with
 * `limit 1` cannot be turned into a join): the planner cannot see how many keys $1 holds, and a
 * hash join over the whole table, with its policies checked on every row, is what it chose
 * otherwise.
 */
function selectByKeysSql(table: TableInfo, columns: string[] | null): string {
  const name = `${ident(table.schema)}.${ident(table.table)}`;
  const cols = columns ? columns.map((c) => `t.${ident(c)}`) : ['t.*'];
  const match = table.primaryKey.map((c) => `t.${ident(c)} = k.${ident(c)}`).join(' and ');
  return `select to_jsonb(x) as r from jsonb_populate_recordset(null::${name}, $1::jsonb) k
    cross join lateral (select ${cols.join(', ')} from ${name} t where ${match} limit 1) x`;
}

/** Channels whose tokens carry equal claims are one viewer (checked once per change). */
const viewerKeys = new WeakMap<JwtClaims, string>();
function viewerKeyOf(claims: JwtClaims): string {
  let key = viewerKeys.get(claims);
  if (key === undefined) {
    key = JSON.stringify(claims);
    viewerKeys.set(claims, key);
  }
  return key;
}
