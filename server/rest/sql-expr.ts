import type { Condition, Field, Filter, OrderTerm } from './ast';
import { arrayLiteral, qualified, quoteIdent } from './ident';
import type { ColumnInfo } from './schema-cache';

/** Bound parameters of one statement: every value goes through `add`, never into the SQL text. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `"t0"."col"` followed by JSON path steps, keys bound as parameters. */
export function renderField(alias: string, field: Field, params: Params): string {
  let sql = `${quoteIdent(alias)}.${quoteIdent(field.name)}`;
  for (const step of field.path) {
    const isIndex = /^-?\d{1,9}$/.test(step.key);
    sql = `(${sql}${step.arrow}${params.add(isIndex ? Number(step.key) : step.key)}::${isIndex ? 'int4' : 'text'})`;
  }
  return sql;
}

const SIMPLE_SQL: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'LIKE',
  ilike: 'ILIKE',
  match: '~',
  imatch: '~*',
};
const RANGE_SQL: Record<string, string> = {
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
};
const FTS_FN: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};

function renderFilter(
  alias: string,
  filter: Filter,
  columns: Map<string, ColumnInfo>,
  params: Params,
): string {
  const col = renderField(alias, filter.field, params);
  const o = filter.operation;
  let sql: string;
  switch (o.op) {
    case 'in':
      sql = `${col} = ANY(${params.add(arrayLiteral(o.values))})`;
      break;
    case 'is':
      sql = o.value === 'not_null' ? `${col} IS NOT NULL` : `${col} IS ${o.value.toUpperCase()}`;
      break;
    case 'isdistinct':
      sql = `${col} IS DISTINCT FROM ${params.add(o.value)}`;
      break;
    case 'fts':
    case 'plfts':
    case 'phfts':
    case 'wfts': {
      const config = o.config ? `${params.add(o.config)}::regconfig, ` : '';
      const info = columns.get(filter.field.name);
      const isVector = filter.field.path.length === 0 && info?.type === 'tsvector';
      const vector = isVector ? col : `to_tsvector(${config}${col})`;
      sql = `${vector} @@ ${FTS_FN[o.op]}(${config}${params.add(o.value)})`;
      break;
    }
    case 'cs':
    case 'cd':
    case 'ov':
    case 'sl':
    case 'sr':
    case 'nxr':
    case 'nxl':
    case 'adj':
      sql = `${col} ${RANGE_SQL[o.op]} ${params.add(o.value)}`;
      break;
    default: {
      const operator = SIMPLE_SQL[o.op];
      if (o.quantifier) {
        const list = o.value.replace(/^\{|\}$/g, '');
        const values = list === '' ? [] : list.split(',').map((v) => v.replace(/^"|"$/g, ''));
        sql = `${col} ${operator} ${o.quantifier.toUpperCase()}(${params.add(arrayLiteral(values))})`;
      } else {
        sql = `${col} ${operator} ${params.add(o.value)}`;
      }
    }
  }
  return filter.negate ? `NOT (${sql})` : sql;
}

export function renderCondition(
  alias: string,
  cond: Condition,
  columns: Map<string, ColumnInfo>,
  params: Params,
  /** The lateral alias of an embed named in an `or`/`and` tree (`embed.not.is.null`). */
  embedAlias: (name: string) => string | undefined = () => undefined,
): string {
  if (cond.kind === 'filter') {
    const lateral = cond.filter.field.path.length ? undefined : embedAlias(cond.filter.field.name);
    if (lateral === undefined) return renderFilter(alias, cond.filter, columns, params);
    const { operation, negate } = cond.filter;
    const isNull = (operation.op === 'is' && operation.value === 'null') !== negate;
    return `${quoteIdent(lateral)}."j" IS ${isNull ? '' : 'NOT '}NULL`;
  }
  const parts = cond.children.map((c) => renderCondition(alias, c, columns, params, embedAlias));
  const joined = parts.length
    ? `(${parts.join(cond.op === 'and' ? ' AND ' : ' OR ')})`
    : cond.op === 'and'
      ? 'TRUE'
      : 'FALSE';
  return cond.negate ? `NOT ${joined}` : joined;
}

/** What a related order (`order=rel(col)`) needs to know about its to-one embed. */
export interface RelatedOrder {
  schema: string;
  table: string;
  alias: string;
  /** parent column = embedded column pairs */
  on: [string, string][];
}

export function renderOrder(
  alias: string,
  terms: OrderTerm[],
  params: Params,
  related: (relation: string) => RelatedOrder | undefined = () => undefined,
): string {
  if (!terms.length) return '';
  const parts = terms.map((t) => {
    const rel = t.relation === undefined ? undefined : related(t.relation);
    let sql: string;
    if (rel) {
      const r = quoteIdent(rel.alias);
      const on = rel.on
        .map(([p, c]) => `${r}.${quoteIdent(c)} = ${quoteIdent(alias)}.${quoteIdent(p)}`)
        .join(' AND ');
      sql = `(SELECT ${renderField(rel.alias, t.field, params)} FROM ${qualified(rel.schema, rel.table)} AS ${r} WHERE ${on})`;
    } else {
      sql = renderField(alias, t.field, params);
    }
    if (t.direction) sql += t.direction === 'desc' ? ' DESC' : ' ASC';
    if (t.nulls) sql += t.nulls === 'first' ? ' NULLS FIRST' : ' NULLS LAST';
    return sql;
  });
  return ` ORDER BY ${parts.join(', ')}`;
}

export function renderPaging(
  limit: number | undefined,
  offset: number | undefined,
  params: Params,
): string {
  let sql = '';
  if (limit !== undefined) sql += ` LIMIT ${params.add(limit)}::int8`;
  if (offset) sql += ` OFFSET ${params.add(offset)}::int8`;
  return sql;
}

export function castSql(type: { schema: string; name: string }): string {
  return qualified(type.schema, type.name);
}
