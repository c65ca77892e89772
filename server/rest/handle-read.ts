import type { QueryResult, Queryable } from '../db/database';
import { RestError } from './errors';
import { cappedLimit, findTable, respond, singularityError, type HandlerContext } from './context';
import { runAsRequest, runStatementAsRequest } from './executor';
import {
  combineRange,
  contentRange,
  parseRangeHeader,
  preferenceApplied,
  rangeStatus,
} from './headers';
import { qualified, quoteIdent } from './ident';
import { Planner, type ReadPlan } from './plan';
import { parseQuery } from './query-params';
import { Params } from './sql-expr';
import { buildCountSql, buildReadSql } from './sql-read';

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

/** `Prefer: count=planned`: the planner's row estimate for the root's filter. */
export async function plannedCount(tx: Queryable, plan: ReadPlan, from: string): Promise<number> {
  const params = new Params();
  const sql = buildCountSql(plan, params, from);
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
 * or estimated (exact up to db-max-rows, the planner's estimate beyond). Without a planned or
 * estimated count the read is one statement: one pipelined batch, one round trip on PostgreSQL.
 */
export async function readAsRequest(
  ctx: HandlerContext,
  readOnly: boolean,
  sql: string,
  params: Params,
  plan: ReadPlan,
  from: string,
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
    const overCap =
      ctx.prefs.count === 'estimated' && ctx.maxRows !== undefined && (r.total ?? 0) > ctx.maxRows;
    if (ctx.prefs.count === 'planned' || overCap) r.total = await plannedCount(tx, plan, from);
    return r;
  });
}

/** Status, Content-Range and body of a paged read (tables, views, set-returning functions). */
export function pagedResponse(
  ctx: HandlerContext,
  offset: number,
  result: ReadResult,
  extraHeaders: Record<string, string | undefined> = {},
): Response {
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

export async function handleRead(ctx: HandlerContext, tableName: string): Promise<Response> {
  const table = findTable(ctx.schema, tableName);
  const query = parseQuery(ctx.url.searchParams);
  const plan = new Planner(ctx.schema, query.levels).plan(table, query.select);
  const root = query.levels.get('');
  const range = combineRange(parseRangeHeader(ctx.headers.get('range')), root?.limit, root?.offset);
  const from = `${qualified('public', table.name)} AS ${quoteIdent(plan.alias)}`;
  const params = new Params();
  const exact = ctx.prefs.count === 'exact' || ctx.prefs.count === 'estimated';
  const sql = buildReadSql(plan, params, {
    from,
    stripNulls: ctx.media.stripNulls,
    csv: ctx.media.kind === 'csv',
    count: exact,
    limit: cappedLimit(ctx, range.limit),
    offset: range.offset,
  });
  const result = await readAsRequest(ctx, false, sql, params, plan, from);
  const search = ctx.url.search;
  return pagedResponse(ctx, range.offset, result, {
    'Content-Location': `/${table.name}${search}`,
  });
}
