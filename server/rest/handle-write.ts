import { MAX_WRITE_ROWS, tooLarge } from './body';
import type { Queryable } from '../db/database';
import { RestError, columnNotFound, invalidBody, payloadColumnNotFound } from './errors';
import {
  findTable,
  parseJsonBody,
  respond,
  singularityError,
  type HandlerContext,
  type RestResponse,
} from './context';
import { runAsRequest } from './executor';
import { checkMaxAffected } from './max-affected';
import { contentRange, preferenceApplied } from './headers';
import { geoJsonFunction, resolveGeoJson } from './geojson';
import { qualified, quoteIdent } from './ident';
import { columnDefaults, defaultsObjectSql } from './column-defaults';
import { runRead } from './handle-read';
import { Planner, returningColumns, type ReadPlan } from './plan';
import { emptyLevel, parseQuery, type ParsedQuery } from './query-params';
import type { TableInfo } from './schema-cache';
import { Params, renderCondition } from './sql-expr';
import { buildReadSql } from './sql-read';
import {
  MUTATION_ALIAS,
  UPDATED_COUNT_SQL,
  deleteSql,
  insertSql,
  updateSql,
  type ReturningOptions,
} from './sql-write';

interface MutationOutcome {
  n: number;
  body: string;
  inserted?: number;
  firstRow?: Record<string, unknown>;
}

type Kind = 'insert' | 'update' | 'delete' | 'upsert';

/** Runs one mutation, with its representation built by Postgres from the RETURNING rows. */
async function execute(
  ctx: HandlerContext,
  table: TableInfo,
  query: ParsedQuery,
  build: (params: Params, opts: ReturningOptions) => string,
  /** An upsert that counts its updated rows (`countUpdates`): the outcome says how many were inserted. */
  countsUpserts: boolean,
): Promise<MutationOutcome> {
  const headersOnly = ctx.prefs.return === 'headers-only';
  const returning = ctx.prefs.return === 'representation' || headersOnly;
  const params = new Params();
  let plan: ReadPlan | undefined;
  let returnColumns: string[] | undefined;
  if (returning) {
    // The representation never re-applies the mutation's own filters or paging.
    const levels = new Map(query.levels);
    levels.set('', {
      ...(levels.get('') ?? emptyLevel()),
      conditions: [],
      limit: undefined,
      offset: undefined,
      embedNullness: [],
    });
    const requested = new Planner(ctx.schema, levels, ctx).plan(table, query.select);
    // RETURNING lists what the request's select needs, not every column (column privileges).
    returnColumns = returningColumns(query.select, requested, table.primaryKey);
    plan = headersOnly
      ? new Planner(ctx.schema, levels, ctx).plan(
          table,
          table.primaryKey.map((c) => ({ kind: 'column' as const, field: { name: c, path: [] } })),
        )
      : requested;
  }
  if (ctx.media.kind === 'geojson') await resolveGeoJson(ctx);
  const mutation = build(params, {
    returning,
    returnColumns,
  });
  let run: (tx: Queryable) => Promise<MutationOutcome>;
  if (plan) {
    const sql = buildReadSql(plan, params, {
      from: `(SELECT *, row_number() OVER () AS "pgrst_ord" FROM "pgrst_source") AS ${quoteIdent(plan.alias)}`,
      defaultOrder: `${quoteIdent(plan.alias)}."pgrst_ord"`,
      prefix: `WITH "pgrst_source" AS (${mutation}) `,
      stripNulls: ctx.media.stripNulls,
      csv: ctx.media.kind === 'csv',
      geojson: geoJsonFunction(ctx),
    });
    run = async (tx) => {
      const r = await runRead(tx, sql, params);
      const first =
        headersOnly && r.n > 0
          ? (
              JSON.parse(r.extra.a === undefined ? r.body : JSON.stringify(r.extra.a)) as Record<
                string,
                unknown
              >[]
            )[0]
          : undefined;
      return {
        n: r.n,
        body: r.body,
        firstRow: first,
      };
    };
  } else {
    run = async (tx) => {
      const r = await tx.query(mutation, params.values);
      return { n: r.affectedRows ?? r.rows.length, body: '' };
    };
  }
  // Prefer: tx=rollback is honoured by runAsRequest where db-tx-end allows it (tx-end.ts).
  return runAsRequest(ctx.db, ctx.request, false, async (tx) => {
    const outcome = await run(tx);
    if (countsUpserts) {
      const counted = await tx.query<{ updated: number }>(UPDATED_COUNT_SQL);
      outcome.inserted = outcome.n - Number(counted.rows[0]?.updated ?? 0);
    }
    // A singular response that is not one row rolls the whole mutation back (the throw does it).
    if (ctx.media.kind === 'object' && outcome.n !== 1) throw singularityError(outcome.n);
    // PATCH and DELETE: Prefer max-affected with handling=strict (the throw rolls back).
    if (ctx.method === 'PATCH' || ctx.method === 'DELETE') checkMaxAffected(ctx.prefs, outcome.n);
    return outcome;
  });
}

function representation(ctx: HandlerContext, outcome: MutationOutcome): string {
  return ctx.media.kind === 'object' ? outcome.body.slice(1, -1) : outcome.body;
}

function mutationWhere(
  ctx: HandlerContext,
  table: TableInfo,
  query: ParsedQuery,
  params: Params,
  kind: Kind,
): string[] {
  const planner = new Planner(ctx.schema, query.levels, ctx);
  const conditions = query.levels.get('')?.conditions ?? [];
  for (const cond of conditions) planner.checkCondition(table, cond);
  if (conditions.length === 0 && (kind === 'update' || kind === 'delete')) {
    // Hosted Supabase loads pg-safeupdate for the API: unfiltered UPDATE/DELETE are refused.
    throw new RestError(
      400,
      '21000',
      `${kind === 'update' ? 'UPDATE' : 'DELETE'} requires a WHERE clause`,
    );
  }
  return conditions.map((c) => renderCondition(MUTATION_ALIAS, c, table.columns, params));
}

function payloadColumns(
  table: TableInfo,
  query: ParsedQuery,
  rows: Record<string, unknown>[],
): string[] {
  const columns = query.columns ?? Object.keys(rows[0] ?? {});
  if (!query.columns) {
    const expected = [...columns].sort().join('\u0000');
    for (const row of rows)
      if (Object.keys(row).sort().join('\u0000') !== expected)
        throw invalidBody('All object keys must match');
  }
  for (const c of columns) if (!table.columns.has(c)) throw payloadColumnNotFound(table.name, c);
  return columns;
}

/** `Prefer: missing=default`: the written columns' defaults object (column-defaults.ts). */
async function missingDefaults(
  ctx: HandlerContext,
  table: TableInfo,
  columns: string[],
): Promise<string | undefined> {
  if (ctx.prefs.missing !== 'default' || columns.length === 0) return undefined;
  const defaults = await columnDefaults(
    ctx.db,
    ctx.schema,
    table,
    qualified(table.schema, table.name),
  );
  return defaultsObjectSql(columns, defaults);
}

function asRows(body: unknown): Record<string, unknown>[] {
  const rows = Array.isArray(body) ? body : [body];
  if (rows.length > MAX_WRITE_ROWS) throw tooLarge(`At most ${MAX_WRITE_ROWS} rows per request`);
  for (const r of rows)
    if (typeof r !== 'object' || r === null || Array.isArray(r)) throw invalidBody();
  return rows as Record<string, unknown>[];
}

export async function handleInsert(ctx: HandlerContext, tableName: string): Promise<RestResponse> {
  const table = findTable(ctx.schema, tableName);
  const query = parseQuery(ctx.url.searchParams);
  const rows = asRows(parseJsonBody(await ctx.readBody()));
  const columns = payloadColumns(table, query, rows);
  const resolution = ctx.prefs.resolution;
  const target = query.onConflict ?? table.primaryKey;
  for (const c of target) if (!table.columns.has(c)) throw columnNotFound(table.name, c);
  const onConflict =
    resolution && target.length
      ? {
          target,
          action: resolution === 'ignore-duplicates' ? ('ignore' as const) : ('merge' as const),
        }
      : undefined;
  const defaults = await missingDefaults(ctx, table, columns);
  const outcome = await execute(
    ctx,
    table,
    query,
    (params, opts) =>
      insertSql(
        table,
        {
          ...opts,
          columns,
          rows,
          missingDefault: defaults,
          onConflict,
          countUpdates: resolution === 'merge-duplicates',
        },
        params,
      ),
    resolution === 'merge-duplicates',
  );
  const status =
    resolution === 'merge-duplicates' && outcome.inserted === 0 && outcome.n > 0 ? 200 : 201;
  let location: string | undefined;
  if (ctx.prefs.return === 'headers-only' && outcome.firstRow && table.primaryKey.length) {
    const row = outcome.firstRow;
    location = `/${table.name}?${table.primaryKey.map((c) => `${encodeURIComponent(c)}=eq.${encodeURIComponent(String(row[c]))}`).join('&')}`;
  }
  const full = ctx.prefs.return === 'representation';
  return respond(status, full ? representation(ctx, outcome) : null, {
    'Content-Type': full ? ctx.media.contentType : undefined,
    Location: location,
    'Content-Range': contentRange(1, 0, ctx.prefs.count ? outcome.n : undefined),
    'Preference-Applied': preferenceApplied(
      ctx.prefs,
      onConflict
        ? ['resolution', 'return', 'count', 'missing', 'handling']
        : ['return', 'count', 'missing', 'handling'],
    ),
  });
}

export async function handleUpdate(ctx: HandlerContext, tableName: string): Promise<RestResponse> {
  const table = findTable(ctx.schema, tableName);
  const query = parseQuery(ctx.url.searchParams);
  const body = parseJsonBody(await ctx.readBody());
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidBody();
  const row = body as Record<string, unknown>;
  const columns = query.columns ?? Object.keys(row);
  for (const c of columns) if (!table.columns.has(c)) throw payloadColumnNotFound(table.name, c);
  const full = ctx.prefs.return === 'representation';
  const headers = (n: number) => ({
    'Content-Type': full ? ctx.media.contentType : undefined,
    'Content-Range': contentRange(0, n - 1, ctx.prefs.count ? n : undefined),
    'Preference-Applied': preferenceApplied(ctx.prefs, [
      'return',
      'count',
      'missing',
      'handling',
      'max-affected',
    ]),
  });
  if (columns.length === 0) return respond(full ? 200 : 204, full ? '[]' : null, headers(0));
  const defaults = await missingDefaults(ctx, table, columns);
  const outcome = await execute(
    ctx,
    table,
    query,
    (params, opts) =>
      updateSql(
        table,
        columns,
        row,
        mutationWhere(ctx, table, query, params, 'update'),
        opts,
        params,
        defaults,
      ),
    false,
  );
  return respond(full ? 200 : 204, full ? representation(ctx, outcome) : null, headers(outcome.n));
}

export async function handleDelete(ctx: HandlerContext, tableName: string): Promise<RestResponse> {
  const table = findTable(ctx.schema, tableName);
  const query = parseQuery(ctx.url.searchParams);
  const full = ctx.prefs.return === 'representation';
  const outcome = await execute(
    ctx,
    table,
    query,
    (params, opts) => deleteSql(table, mutationWhere(ctx, table, query, params, 'delete'), opts),
    false,
  );
  return respond(full ? 200 : 204, full ? representation(ctx, outcome) : null, {
    'Content-Type': full ? ctx.media.contentType : undefined,
    'Content-Range': contentRange(1, 0, ctx.prefs.count ? outcome.n : undefined),
    'Preference-Applied': preferenceApplied(ctx.prefs, [
      'return',
      'count',
      'handling',
      'max-affected',
    ]),
  });
}

export async function handlePut(ctx: HandlerContext, tableName: string): Promise<RestResponse> {
  const table = findTable(ctx.schema, tableName);
  const query = parseQuery(ctx.url.searchParams);
  const root = query.levels.get('') ?? emptyLevel();
  if (root.limit !== undefined || root.offset !== undefined)
    throw new RestError(
      400,
      'PGRST114',
      'limit/offset querystring parameters are not allowed for PUT',
    );
  const pk = table.primaryKey;
  const eqs = query.rootEq.filter((f) => f.op === 'eq' && !f.negate);
  const matchesPk =
    pk.length > 0 &&
    root.conditions.length === pk.length &&
    eqs.length === pk.length &&
    pk.every((c) => eqs.some((f) => f.column === c));
  if (!matchesPk)
    throw new RestError(
      405,
      'PGRST105',
      "Filters must include all and only primary key columns with 'eq' operators",
    );
  const rows = asRows(parseJsonBody(await ctx.readBody()));
  if (rows.length !== 1) throw invalidBody('PUT payload must contain a single row');
  const row = rows[0] ?? {};
  const columns = payloadColumns(table, query, rows);
  if (
    !pk.every(
      (c) => Object.hasOwn(row, c) && String(row[c]) === eqs.find((f) => f.column === c)?.value,
    )
  ) {
    throw new RestError(
      400,
      'PGRST115',
      'Payload values do not match URL in primary key column(s)',
    );
  }
  // PostgREST applies missing=default to PUT too (and, as there, does not report it applied).
  const defaults = await missingDefaults(ctx, table, columns);
  const outcome = await execute(
    ctx,
    table,
    query,
    (params, opts) =>
      insertSql(
        table,
        {
          ...opts,
          columns,
          rows,
          missingDefault: defaults,
          onConflict: { target: pk, action: 'merge' },
          countUpdates: true,
        },
        params,
      ),
    true,
  );
  const full = ctx.prefs.return === 'representation';
  return respond(
    full ? ((outcome.inserted ?? 0) > 0 ? 201 : 200) : 204,
    full ? representation(ctx, outcome) : null,
    {
      'Content-Type': full ? ctx.media.contentType : undefined,
      'Preference-Applied': preferenceApplied(ctx.prefs, ['return', 'count', 'handling']),
    },
  );
}
