import type { QueryResult, Queryable } from '../db/database';
import { RestError } from './errors';
import {
  cappedLimit,
  findTable,
  respond,
  singularityError,
  type HandlerContext,
  type RestResponse,
} from './context';
import { runAsRequest, runStatementAsRequest } from './executor';
import {
  combineRange,
  contentRange,
  parseRangeHeader,
  preferenceApplied,
  rangeStatus,
} from './headers';
import { geoJsonFunction, resolveGeoJson } from './geojson';
import { qualified, quoteIdent } from './ident';
import { Planner, type ReadPlan } from './plan';
import { parseQuery } from './query-params';
import { Params } from './sql-expr';
import { buildCountSql, buildReadSql } from './sql-read';
import { explainResponse } from './explain';
import type { SchemaCache } from './schema-cache';

export interface ReadResult {
  body: string;
  n: number;
  total?: number;
  extra: Record<string, unknown>;
}

/** Runs a statement built by buildReadSql and reads its single row. */
export async function runRead(tx: Queryable, sql: string, params: Params): Promise<ReadResult> {
  return readResultOf(await tx.query<Record<string, unknown>>(sql, params.values));
}

/** The single row of a statement built by buildReadSql. */
function readResultOf(res: QueryResult): ReadResult {
  const row = res.rows[0] ?? {};
  return {
    body: typeof row.body === 'string' ? row.body : '[]',
    n: Number(row.n ?? 0),
    total: row.total === null || row.total === undefined ? undefined : Number(row.total),
    extra: row,
  };
}

/**
 * `Prefer: count=planned`: the planner's row estimate for the root's filter. `fromValues`: the
 * parameters `from` refers to (an RPC call's arguments). Rendering the level also binds what the
 * count does not use (paging, select-list JSON keys, embedded filters); those are referred to in
 * the select list as text, which changes no row estimate, so every bound value has its `$n`.
 */
export async function plannedCount(
  tx: Queryable,
  plan: ReadPlan,
  from: string,
  fromValues: readonly unknown[] = [],
): Promise<number> {
  const params = new Params();
  params.values.push(...fromValues);
  let sql = buildCountSql(plan, params, from);
  const used = new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  const unused = params.values.map((_, i) => i + 1).filter((n) => !used.has(n));
  if (unused.length)
    sql = sql.replace(/^SELECT 1 /, `SELECT 1${unused.map((n) => `, $${n}::text`).join('')} `);
  const res = await tx.query<Record<string, unknown>>(
    `EXPLAIN (FORMAT JSON) ${sql}`,
    params.values,
  );
  const raw = Object.values(res.rows[0] ?? {})[0];
  const json = (typeof raw === 'string' ? JSON.parse(raw) : raw) as {
    Plan?: { 'Plan Rows'?: number };
  }[];
  return Math.round(json[0]?.Plan?.['Plan Rows'] ?? 0);
}

/**
 * Runs the read as the request and settles the count PostgREST's way: exact, planned (EXPLAIN),
 * or estimated: the exact count while it is at most db-max-rows, else the larger of it and the
 * planner's estimate; with no db-max-rows (null) always the larger (PostgREST's
 * `tableTotal > configDbMaxRows` on Maybe values, where any count exceeds Nothing). Without a planned or
 * estimated count the read is one statement: one pipelined batch, one round trip on PostgreSQL.
 */
export async function readAsRequest(
  ctx: HandlerContext,
  readOnly: boolean,
  sql: string,
  params: Params,
  plan: ReadPlan,
  from: string,
  fromValues: readonly unknown[] = [],
): Promise<ReadResult> {
  if (ctx.prefs.count !== 'planned' && ctx.prefs.count !== 'estimated') {
    const res = await runStatementAsRequest(ctx.db, ctx.request, readOnly, {
      sql,
      params: params.values,
    });
    return readResultOf(res);
  }
  return runAsRequest(ctx.db, ctx.request, readOnly, async (tx) => {
    const r = await runRead(tx, sql, params);
    if (ctx.prefs.count === 'planned') r.total = await plannedCount(tx, plan, from, fromValues);
    else if (ctx.maxRows === undefined || (r.total ?? 0) > ctx.maxRows)
      r.total = Math.max(r.total ?? 0, await plannedCount(tx, plan, from, fromValues));
    return r;
  });
}

/** Status, Content-Range and body of a paged read (tables, views, set-returning functions). */
export function pagedResponse(
  ctx: HandlerContext,
  offset: number,
  result: ReadResult,
  extraHeaders: Record<string, string | undefined> = {},
): RestResponse {
  const lower = offset;
  const upper = lower + result.n - 1;
  const status = rangeStatus(lower, upper, result.total);
  const range = contentRange(lower, upper, result.total);
  if (status === 416) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      `An offset of ${lower} was requested, but there are only ${result.total ?? 0} rows.`,
      null,
      {
        'Content-Range': range,
      },
    );
  }
  if (ctx.media.kind === 'object' && result.n !== 1) throw singularityError(result.n);
  const body = ctx.media.kind === 'object' ? result.body.slice(1, -1) : result.body;
  return respond(status, ctx.method === 'HEAD' ? null : body, {
    'Content-Type': ctx.media.contentType,
    'Content-Range': range,
    'Preference-Applied': preferenceApplied(ctx.prefs, ['count', 'handling']),
    ...extraHeaders,
  });
}

/** A read compiled to SQL: everything handleRead derives from the URL and headers. */
interface CompiledRead {
  tableName: string;
  plan: ReadPlan;
  offset: number;
  from: string;
  sql: string;
  values: unknown[];
}

function compileRead(
  ctx: HandlerContext,
  tableName: string,
  search: URLSearchParams,
): CompiledRead {
  const table = findTable(ctx.schema, tableName);
  const query = parseQuery(search);
  const plan = new Planner(ctx.schema, query.levels, ctx).plan(table, query.select);
  const root = query.levels.get('');
  const range = combineRange(parseRangeHeader(ctx.headers.range), root?.limit, root?.offset);
  const from = `${qualified(table.schema, table.name)} AS ${quoteIdent(plan.alias)}`;
  const params = new Params();
  const exact = ctx.prefs.count === 'exact' || ctx.prefs.count === 'estimated';
  const sql = buildReadSql(plan, params, {
    from,
    stripNulls: ctx.media.stripNulls,
    csv: ctx.media.kind === 'csv',
    geojson: geoJsonFunction(ctx),
    count: exact,
    limit: cappedLimit(ctx, range.limit),
    offset: range.offset,
  });
  return { tableName: table.name, plan, offset: range.offset, from, sql, values: params.values };
}

/**
 * Compiled reads by URL shape: the query string with the values of plain comparisons
 * (`col=eq.v`, `neq`, `gt`, `gte`, `lt`, `lte`, with or without `not.`) taken out, plus the
 * headers the SQL depends on. A hit re-binds those values to the same parameter slots, so
 * `tracks?id=eq.<any id>&select=*` is parsed, planned and built once (profiled:
 * docs/rest-api.md#speed). Values stay bound parameters; they never reach the SQL text. One map
 * per schema cache, so a schema reload starts afresh; null marks a shape that cannot be
 * templated (a value that does not land verbatim in exactly one parameter).
 */
const templates = new WeakMap<SchemaCache, Map<string, ReadTemplate | null>>();
const MAX_TEMPLATES = 500;
const MAX_SHAPE_LENGTH = 2000;
const PLAIN_COMPARISON = /^(not\.)?(eq|neq|gt|gte|lt|lte)\.([\s\S]*)$/;
const NOT_FILTERS = new Set(['select', 'columns', 'on_conflict', 'order', 'limit', 'offset']);

interface ReadTemplate extends CompiledRead {
  /** Parameter index of each shape value, in query-string order. */
  slots: number[];
}

interface Shape {
  key: string;
  values: string[];
  /** The query string with each value replaced by a unique marker. */
  marked: URLSearchParams;
  markers: string[];
}

function shapeOf(ctx: HandlerContext, tableName: string): Shape | undefined {
  const h = ctx.headers;
  // Every part length-prefixed: no two different requests share a key.
  const part = (x: string) => `${x.length}:${x}`;
  let key = part(tableName) + part(h.range ?? '') + part(h.accept ?? '') + part(h.prefer ?? '');
  const values: string[] = [];
  const markers: string[] = [];
  const marked = new URLSearchParams();
  for (const [k, v] of ctx.url.searchParams) {
    const last = k.slice(k.lastIndexOf('.') + 1);
    const m =
      NOT_FILTERS.has(last) || last === 'or' || last === 'and' ? null : PLAIN_COMPARISON.exec(v);
    if (m) {
      const marker = `\u0000${values.length}\u0000`;
      values.push(m[3] as string);
      markers.push(marker);
      marked.append(k, `${m[1] ?? ''}${m[2] as string}.${marker}`);
      key += `${part(k)}${part(`${m[1] ?? ''}${m[2] as string}`)}`;
    } else {
      marked.append(k, v);
      key += `${part(k)}=${part(v)}`;
    }
    if (key.length > MAX_SHAPE_LENGTH) return undefined;
  }
  return { key, values, marked, markers };
}

/** The template of a shape: compiled with markers, each found verbatim in exactly one slot. */
function templateOf(ctx: HandlerContext, tableName: string, shape: Shape): ReadTemplate | null {
  let compiled: CompiledRead;
  try {
    compiled = compileRead(ctx, tableName, shape.marked);
  } catch {
    return null; // the real compile throws the same error, with the real values
  }
  const slots: number[] = [];
  for (const marker of shape.markers) {
    if (compiled.sql.includes(marker)) return null;
    let slot = -1;
    for (let i = 0; i < compiled.values.length; i++) {
      const v = compiled.values[i];
      if (v === marker && slot === -1) slot = i;
      else if (v === marker || (typeof v === 'string' && v.includes(marker))) return null;
    }
    if (slot === -1) return null;
    slots.push(slot);
  }
  return { ...compiled, slots };
}

function cachedCompile(ctx: HandlerContext, tableName: string): CompiledRead {
  const shape = shapeOf(ctx, tableName);
  if (!shape) return compileRead(ctx, tableName, ctx.url.searchParams);
  let cache = templates.get(ctx.schema);
  if (!cache) templates.set(ctx.schema, (cache = new Map()));
  let template = cache.get(shape.key);
  if (template === undefined) {
    template = templateOf(ctx, tableName, shape);
    if (cache.size >= MAX_TEMPLATES) cache.delete(cache.keys().next().value as string);
    cache.set(shape.key, template);
  }
  if (!template) return compileRead(ctx, tableName, ctx.url.searchParams);
  const values = template.values.slice();
  for (let i = 0; i < template.slots.length; i++)
    values[template.slots[i] as number] = shape.values[i];
  return { ...template, values };
}

export async function handleRead(ctx: HandlerContext, tableName: string): Promise<RestResponse> {
  if (ctx.media.kind === 'geojson') await resolveGeoJson(ctx);
  // A planned or estimated count re-renders the plan (plannedCount), whose values a cached
  // template holds as markers: compile those reads afresh.
  const read =
    ctx.prefs.count === 'planned' || ctx.prefs.count === 'estimated'
      ? compileRead(ctx, tableName, ctx.url.searchParams)
      : cachedCompile(ctx, tableName);
  const params = new Params();
  params.values.push(...read.values);
  if (ctx.plan) return explainResponse(ctx, false, read.sql, params.values);
  const result = await readAsRequest(ctx, false, read.sql, params, read.plan, read.from);
  const search = ctx.url.search;
  return pagedResponse(ctx, read.offset, result, {
    'Content-Location': `/${read.tableName}${search}`,
  });
}
