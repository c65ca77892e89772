/**
 * Aggregate functions in `select=` as PostgREST 12/13 does them (`db-aggregates-enabled`):
 * `count()`, `col.count()`, `col.sum()`, `col.avg()`, `col.min()`, `col.max()`, with an alias
 * (`total:amount.sum()`), a cast of the column before (`amount::int.sum()`) and of the result
 * after (`amount.sum()::text`). Every other selected column (and embed) of the same level is
 * grouped by (GROUP BY). Inside a to-one spread (`...details(id.sum())`) the aggregate is
 * "hoisted" to the level the spread joins into, as PostgREST's `hoistSpreadAggFunctions` does.
 *
 * Off by default, as PostgREST's `db-aggregates-enabled`: any aggregate is then 400 `PGRST123`.
 * The grammar is parsed here (hooked into parse-select.ts), the checks run in the planner (plan.ts)
 * and the SQL pieces are rendered here for sql-read.ts.
 */
import { AGGREGATE_FUNCTIONS, type Aggregate, type Field, type SelectItem } from './ast';
import type { Cursor } from './cursor';
import { RestError, columnNotFound } from './errors';
import { quoteIdent } from './ident';
import { castSql, renderField, type Params } from './sql-expr';

export type { Aggregate };

type TypeRef = { schema: string; name: string };

/** A resolved aggregate: the result cast is a checked `pg_type` name (see plan.ts resolveCast). */
export interface PlannedAggregate {
  fn: Aggregate['fn'];
  cast?: TypeRef;
}

/** The field name that stands for "the whole row" in a bare `count()`. */
export const WHOLE_ROW = '*';

export { AGGREGATE_FUNCTIONS };

/** A bare `count()` (optionally `count()::type`) at the cursor: parsed, or undefined (cursor kept). */
export function parseBareCount(cur: Cursor): Aggregate | undefined {
  if (!cur.startsWith('count()')) {
    // `count` is never an embed in PostgREST's grammar: `count(x)` is a parse error there too.
    if (cur.startsWith('count(')) {
      cur.pos += 'count('.length;
      throw cur.fail('expecting ")"');
    }
    return undefined;
  }
  const after = cur.input[cur.pos + 'count()'.length] ?? '';
  if (after !== '' && after !== ',' && after !== ')' && after !== ':') return undefined;
  cur.pos += 'count()'.length;
  return { fn: 'count', cast: parseCast(cur) };
}

/** `.fn()` with an optional `::type` after a column (and its own cast), or undefined. */
export function parseAggregateSuffix(cur: Cursor): Aggregate | undefined {
  if (cur.peek() !== '.') return undefined;
  const fn = AGGREGATE_FUNCTIONS.find((f) => cur.input.startsWith(`.${f}()`, cur.pos));
  if (!fn) {
    cur.pos++;
    throw cur.fail('expecting an aggregate function: count(), sum(), avg(), min() or max()');
  }
  cur.pos += fn.length + 3;
  return { fn, cast: parseCast(cur) };
}

/** `::type` (the same characters the column cast accepts), or undefined. */
export function parseCast(cur: Cursor): string | undefined {
  if (!cur.eat('::')) return undefined;
  const start = cur.pos;
  while (!cur.done && /[A-Za-z0-9_ [\]]/.test(cur.peek())) cur.pos++;
  const cast = cur.input.slice(start, cur.pos).trim();
  if (!cast) throw cur.fail('expecting a type name');
  return cast;
}

/** REST_DB_AGGREGATES_ENABLED (`true`/`false`, also `on`/`off`, `1`/`0`; unset: off). */
export function aggregatesEnabledFromEnv(value: string | undefined): boolean {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'false' || v === 'off' || v === '0') return false;
  if (v === 'true' || v === 'on' || v === '1') return true;
  throw new Error(`REST_DB_AGGREGATES_ENABLED may be "true" or "false", got "${value}"`);
}

/** 400 PGRST123 unless the server allows aggregates (PostgREST's db-aggregates-enabled). */
export function checkAggregatesAllowed(enabled: boolean | undefined): void {
  if (!enabled) throw new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
}

/** PostgREST 13 refuses aggregates in (or hoisted through) a to-many spread. */
export function aggregatesInToManySpread(): RestError {
  return new RestError(
    400,
    'PGRST127',
    'Feature not implemented',
    'Aggregates are not implemented for one-to-many or many-to-many spreads.',
  );
}

/** `FN(expr)` and its result cast, as SQL. */
function aggregateSql(agg: PlannedAggregate, expr: string): string {
  const applied = `${agg.fn.toUpperCase()}(${expr})`;
  return agg.cast ? `CAST(${applied} AS ${castSql(agg.cast)})` : applied;
}

/**
 * The select-list SQL of one level's items when the level may aggregate (sql-read.ts asks it for
 * each item), collecting the GROUP BY: every item that does not aggregate, when one does.
 */
export class LevelGrouping {
  /** Whether this level aggregates (an aggregated column, or one hoisted from a spread). */
  readonly on: boolean;
  private readonly terms: string[] = [];

  constructor(select: { kind: string }[], embeds: HoistingEmbed[]) {
    this.on =
      select.some((item) => isColumn(item) && item.aggregate !== undefined) ||
      embeds.some((e) => e.spread && e.hoisted !== undefined);
  }

  /** A column: `expr`, `CAST(expr AS t)`, or aggregated; the same text is grouped by. */
  column(alias: string, item: PlannedColumn, params: Params): string {
    if (item.field.name === WHOLE_ROW) {
      // `count()`: COUNT(*); hoisted out of a spread, the spread row's presence (counted above).
      return item.aggregate ? aggregateSql(item.aggregate, '*') : 'TRUE';
    }
    const field = renderField(alias, item.field, params);
    const expr = item.cast ? `CAST(${field} AS ${castSql(item.cast)})` : field;
    return this.value(expr, item.aggregate);
  }

  /** A spread key `"e1"."key"`, aggregated when the spread hoisted an aggregate for it. */
  spread(lateral: string, key: string, hoisted: Map<string, PlannedAggregate> | undefined): string {
    return this.value(`${quoteIdent(lateral)}.${quoteIdent(key)}`, hoisted?.get(key));
  }

  /** A JSON embed's value `ref`: `json` has no equality, so a grouping level groups its text. */
  json(ref: string): string {
    if (!this.on) return ref;
    this.terms.push(`${ref}::text`);
    return `(${ref}::text)::json`;
  }

  /** ` GROUP BY …` or ''. */
  groupBy(): string {
    return this.on && this.terms.length ? ` GROUP BY ${this.terms.join(', ')}` : '';
  }

  private value(expr: string, aggregate: PlannedAggregate | undefined): string {
    if (aggregate) return aggregateSql(aggregate, expr);
    if (this.on) this.terms.push(expr);
    return expr;
  }
}

/** Whether a select tree names an aggregate anywhere (checked once, before planning). */
export function hasAggregate(select: SelectItem[]): boolean {
  return select.some((item) =>
    item.kind === 'column'
      ? item.aggregate !== undefined
      : item.kind === 'embed' && hasAggregate(item.select),
  );
}

/** The planned column of `col.fn()` / `count()`: checked column, output key, resolved casts. */
export function planAggregate(
  item: { field: Field; alias?: string; cast?: string },
  aggregate: Aggregate,
  source: { name: string; columns: Map<string, unknown> },
  resolveCast: (cast: string) => TypeRef,
): PlannedColumn {
  if (item.field.name !== WHOLE_ROW && !source.columns.has(item.field.name))
    throw columnNotFound(source.name, item.field.name);
  return {
    kind: 'column',
    field: item.field,
    // Postgres names `SUM(x)` and `CAST(SUM(x) AS t)` "sum"; PostgREST keeps that name.
    key: item.alias ?? aggregate.fn,
    cast: item.cast ? resolveCast(item.cast) : undefined,
    aggregate: {
      fn: aggregate.fn,
      cast: aggregate.cast ? resolveCast(aggregate.cast) : undefined,
    },
  };
}

/** The parts of plan.ts's types this module reads (structural: plan.ts imports this module). */
export interface PlannedColumn {
  kind: 'column';
  field: Field;
  key: string;
  cast?: TypeRef;
  aggregate?: PlannedAggregate;
}
interface HoistingEmbed {
  spread: boolean;
  rel: { toOne: boolean };
  plan: { select: { kind: string }[]; embeds: HoistingEmbed[] };
  hoisted?: Map<string, PlannedAggregate>;
}

const isColumn = (item: { kind: string }): item is PlannedColumn => item.kind === 'column';

/**
 * A spread's aggregates are computed by the level it spreads into (PostgREST's
 * `hoistSpreadAggFunctions`): its own aggregated columns are selected plain and recorded in
 * `hoisted` by key, with those its own to-one spreads hoisted to it. A to-many spread (PostgREST
 * 13) with aggregates is 400 PGRST127, as there.
 */
export function hoistSpreadAggregates(embed: HoistingEmbed): void {
  const hoisted = new Map<string, PlannedAggregate>();
  for (const item of embed.plan.select) {
    if (!isColumn(item) || !item.aggregate) continue;
    hoisted.set(item.key, item.aggregate);
    item.aggregate = undefined;
  }
  for (const child of embed.plan.embeds) {
    if (!child.spread || !child.hoisted) continue;
    for (const [key, agg] of child.hoisted) hoisted.set(key, agg);
    child.hoisted = undefined;
  }
  if (hoisted.size === 0) return;
  if (!embed.rel.toOne) throw aggregatesInToManySpread();
  embed.hoisted = hoisted;
}
