import { RestError, invalidBody } from './errors';
import {
  cappedLimit,
  parseJsonBody,
  respond,
  type HandlerContext,
  type RestResponse,
} from './context';
import { runAsRequest, runStatementAsRequest } from './executor';
import { combineRange, contentRange, parseRangeHeader, preferenceApplied } from './headers';
import { geoJsonFunction, resolveGeoJson } from './geojson';
import { explainResponse } from './explain';
import { qualified, quoteIdent } from './ident';
import { pagedResponse, readAsRequest, runRead } from './handle-read';
import { checkMaxAffected, refuseMaxAffectedOnSingle, strictMaxAffected } from './max-affected';
import { Planner } from './plan';
import { parseQuery } from './query-params';
import type { FunctionInfo, FunctionParam, SchemaCache } from './schema-cache';
import { Params } from './sql-expr';
import { buildReadSql } from './sql-read';

const JSON_TYPES = new Set(['json', 'jsonb']);

function notFound(name: string, args: string[], schema: SchemaCache): RestError {
  const list = [...args].sort().join(', ');
  const known = schema.functions.get(name)?.[0];
  const q = `${schema.name}.${name}`;
  return new RestError(
    404,
    'PGRST202',
    `Could not find the function ${q}${list ? `(${list})` : ' without parameters'} in the schema cache`,
    `Searched for the function ${q}${list ? ` with parameters ${list}` : ' without parameters'} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
    known
      ? `Perhaps you meant to call the function ${q}(${known.params.map((p) => p.name).join(', ')})`
      : null,
  );
}

/** PostgREST's overload choice: every given argument is a parameter, every required one is given. */
function chooseFunction(
  schema: SchemaCache,
  name: string,
  args: string[],
  isPost: boolean,
): { fn: FunctionInfo; wholeBody: boolean } {
  const candidates = schema.functions.get(name) ?? [];
  const matches = candidates.filter(
    (fn) =>
      args.every((a) => fn.params.some((p) => p.name === a)) &&
      fn.params.every((p) => p.hasDefault || args.includes(p.name)),
  );
  if (matches.length === 1 && matches[0]) return { fn: matches[0], wholeBody: false };
  if (matches.length === 0 && isPost) {
    const single = candidates.filter(
      (fn) =>
        fn.params.length === 1 && fn.params[0]?.name === '' && JSON_TYPES.has(fn.params[0].type),
    );
    if (single.length === 1 && single[0]) return { fn: single[0], wholeBody: true };
  }
  if (matches.length === 0) throw notFound(name, args, schema);
  throw new RestError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${matches.map((f) => `${schema.name}.${name}(${f.params.map((p) => `${p.name} => ${p.type}`).join(', ')})`).join(', ')}`,
    null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  );
}

function typeSql(p: FunctionParam): string {
  return qualified(p.typeSchema, p.type);
}

/** `FROM json_to_record($1) AS _a(...)` + the call with named arguments: values never become SQL. */
function callSql(
  schema: string,
  fn: FunctionInfo,
  args: Record<string, unknown>,
  wholeBody: unknown,
  params: Params,
): { from: string; call: string } {
  const name = qualified(schema, fn.name);
  if (wholeBody !== undefined) {
    const p = fn.params[0];
    return {
      from: '',
      call: `${name}(${params.add(JSON.stringify(wholeBody))}::${p ? typeSql(p) : 'json'})`,
    };
  }
  const given = fn.params.filter((p) => Object.hasOwn(args, p.name));
  if (given.length === 0) return { from: '', call: `${name}()` };
  const record = Object.fromEntries(given.map((p) => [p.name, args[p.name]]));
  const defs = given.map((p) => `${quoteIdent(p.name)} ${typeSql(p)}`).join(', ');
  const from = `json_to_record(${params.add(JSON.stringify(record))}::json) AS "pgrst_args"(${defs})`;
  const call = `${name}(${given.map((p) => `${quoteIdent(p.name)} := "pgrst_args".${quoteIdent(p.name)}`).join(', ')})`;
  return { from, call };
}

const RESERVED_KEYS = new Set([
  'select',
  'order',
  'limit',
  'offset',
  'columns',
  'and',
  'or',
  'not',
]);

/**
 * The argument names of a call to a function the schema cache does not have, for PGRST202's
 * message as PostgREST words it (`fx(a, b)`): the body's keys, or the query string's keys that
 * are not PostgREST's own.
 */
async function givenArgNames(ctx: HandlerContext, isRead: boolean): Promise<string[]> {
  if (isRead)
    return [...new Set(ctx.url.searchParams.keys())].filter(
      (k) => !RESERVED_KEYS.has(k) && !k.includes('.'),
    );
  let body: unknown;
  try {
    body = parseJsonBody(await ctx.readBody(), true);
  } catch {
    return [];
  }
  return body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
}

export async function handleRpc(ctx: HandlerContext, fnName: string): Promise<RestResponse> {
  const isRead = ctx.method === 'GET' || ctx.method === 'HEAD';
  if (!isRead && ctx.method !== 'POST')
    throw new RestError(405, 'PGRST101', `Cannot use the ${ctx.method} method on RPC`);
  if (!ctx.schema.functions.has(fnName))
    throw notFound(fnName, await givenArgNames(ctx, isRead), ctx.schema);
  const candidates = ctx.schema.functions.get(fnName) ?? [];
  const paramNames = new Set(candidates.flatMap((f) => f.params.map((p) => p.name)));
  const query = parseQuery(
    ctx.url.searchParams,
    isRead ? (key) => paramNames.has(key) : () => false,
  );
  const body: unknown = isRead
    ? Object.fromEntries(query.args)
    : parseJsonBody(await ctx.readBody(), true);
  if (Array.isArray(body))
    throw invalidBody('Calling a function with an array body (bulk call) is not supported');
  if (typeof body !== 'object' || body === null) throw invalidBody();
  const args = body as Record<string, unknown>;
  const { fn, wholeBody } = chooseFunction(ctx.schema, fnName, Object.keys(args), !isRead);
  refuseMaxAffectedOnSingle(ctx.prefs, fn.returnsSet);
  const applied = preferenceApplied(ctx.prefs, ['count', 'handling', 'max-affected']);
  const params = new Params();
  const { from, call } = callSql(ctx.schema.name, fn, args, wholeBody ? body : undefined, params);
  const fromValues = params.values.slice();
  if (fn.returnsVoid || (fn.returnsScalar && !fn.returnsSet)) {
    const sql = `SELECT to_json(${call})::text AS body${from ? ` FROM ${from}` : ''}`;
    if (ctx.plan) return explainResponse(ctx, isRead, sql, params.values);
    const result = await runStatementAsRequest(ctx.db, ctx.request, isRead, {
      sql,
      params: params.values,
    });
    if (fn.returnsVoid) return respond(204, null, { 'Preference-Applied': applied });
    return respond(
      200,
      ctx.method === 'HEAD'
        ? null
        : ((result.rows[0]?.body as string | null | undefined) ?? 'null'),
      {
        'Content-Type': ctx.media.contentType,
        // One value; with Prefer: count=… its total is that one row, as PostgREST answers.
        'Content-Range': contentRange(0, 0, ctx.prefs.count ? 1 : undefined),
        'Preference-Applied': applied,
      },
    );
  }
  const scalarSet = fn.returnsScalar && fn.returnsSet;
  const table = fn.returnTable ? ctx.schema.tables.get(fn.returnTable) : undefined;
  const source = {
    name: fn.name,
    schema: ctx.schema.name,
    columns: scalarSet
      ? new Map([
          [
            'pgrst_scalar',
            { name: 'pgrst_scalar', type: '', typeSchema: '', notNull: false, hasDefault: false },
          ],
        ])
      : (fn.returnColumns ?? new Map()),
    relationships: table?.relationships ?? [],
    rowType: table?.name,
  };
  const select = scalarSet
    ? [{ kind: 'column' as const, field: { name: 'pgrst_scalar', path: [] } }]
    : query.select;
  const plan = new Planner(ctx.schema, query.levels, ctx).plan(source, select);
  if (ctx.media.kind === 'geojson') await resolveGeoJson(ctx);
  const fromItem = `${call} AS ${quoteIdent(plan.alias)}${scalarSet ? '("pgrst_scalar")' : ''}`;
  const fullFrom = from ? `${from} CROSS JOIN LATERAL ${fromItem}` : fromItem;
  const root = query.levels.get('');
  const range = combineRange(parseRangeHeader(ctx.headers.range), root?.limit, root?.offset);
  const exact = ctx.prefs.count === 'exact' || ctx.prefs.count === 'estimated';
  const sql = buildReadSql(plan, params, {
    from: fullFrom,
    stripNulls: ctx.media.stripNulls,
    csv: ctx.media.kind === 'csv' && !scalarSet,
    geojson: geoJsonFunction(ctx),
    count: exact,
    limit: cappedLimit(ctx, range.limit),
    offset: range.offset,
    aggregateColumn: scalarSet ? 'pgrst_scalar' : undefined,
  });
  if (ctx.plan) return explainResponse(ctx, isRead, sql, params.values);
  const result =
    strictMaxAffected(ctx.prefs) === undefined
      ? await readAsRequest(ctx, isRead, sql, params, plan, fullFrom, fromValues)
      : // max-affected counts the rows returned, then commits or rolls back (max-affected.ts).
        await runAsRequest(ctx.db, ctx.request, isRead, async (tx) => {
          const r = await runRead(tx, sql, params);
          checkMaxAffected(ctx.prefs, r.n);
          return r;
        });
  if (!fn.returnsSet && ctx.media.kind !== 'csv') {
    // A single composite value is an object, not an array.
    const body = result.n === 1 ? result.body.slice(1, -1) : 'null';
    return respond(200, ctx.method === 'HEAD' ? null : body, {
      'Content-Type': ctx.media.contentType,
      'Content-Range': contentRange(0, 0, result.total),
      'Preference-Applied': applied,
    });
  }
  return pagedResponse(ctx, range.offset, result, { 'Preference-Applied': applied });
}
