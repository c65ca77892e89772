import { featureCollectionSql } from './geojson';
import { LevelGrouping } from './aggregates';
import { qualified, quoteIdent } from './ident';
import type { EmbedPlan, ReadPlan } from './plan';
import type { Params } from './sql-expr';
import { renderCondition, renderOrder, renderPaging } from './sql-expr';
import { spreadJoin, spreadKeys } from './spread';

/** The pieces of one level's SELECT, so the root can reuse them for its count. */
export interface LevelSql {
  selectList: string;
  joins: string;
  /** Joins that restrict rows (`!inner`, `embed=is.null`): the count needs them. */
  filteringJoins: string;
  where: string[];
  /** ` GROUP BY …` when the level has aggregates (aggregates.ts), else ''. */
  group: string;
  order: string;
  paging: string;
}

export function renderLevel(
  plan: ReadPlan,
  params: Params,
  extraWhere: string[] = [],
  paging?: { limit?: number; offset?: number },
): LevelSql {
  const alias = plan.alias;
  const cols: string[] = [];
  const grouping = new LevelGrouping(plan.select, plan.embeds);
  for (const item of plan.select) {
    if (item.kind === 'count') {
      cols.push(`count(*) AS ${quoteIdent(item.key)}`);
    } else if (item.kind === 'column') {
      cols.push(`${grouping.column(alias, item, params)} AS ${quoteIdent(item.key)}`);
    } else if (item.embed.spread) {
      // To-one: the embed's keys, aggregated when the spread hoisted an aggregate (aggregates.ts);
      // to-many: JSON arrays (spread.ts), grouped by their text when this level aggregates.
      const lateral = quoteIdent(item.embed.lateral);
      for (const key of spreadKeys(item.embed.plan)) {
        const value = item.embed.rel.toOne
          ? grouping.spread(item.embed.lateral, key, item.embed.hoisted)
          : grouping.json(`${lateral}.${quoteIdent(key)}`);
        cols.push(`${value} AS ${quoteIdent(key)}`);
      }
    } else {
      const j = grouping.json(`${quoteIdent(item.embed.lateral)}."j"`);
      cols.push(
        item.embed.rel.toOne
          ? `${j} AS ${quoteIdent(item.embed.key)}`
          : `COALESCE(${j}, '[]'::json) AS ${quoteIdent(item.embed.key)}`,
      );
    }
  }
  let joins = '';
  let filteringJoins = '';
  const where = [...extraWhere];
  for (const embed of plan.embeds) {
    const join = renderEmbedJoin(alias, embed, params);
    joins += join;
    if (embed.inner || embed.isNull !== undefined || embed.inTree) filteringJoins += join;
    if (embed.isNull !== undefined)
      where.push(`${quoteIdent(embed.lateral)}."j" IS ${embed.isNull ? '' : 'NOT '}NULL`);
  }
  for (const cond of plan.params.conditions)
    where.push(
      renderCondition(
        alias,
        cond,
        plan.source.columns,
        params,
        (name) => plan.embeds.find((e) => e.inTree && e.key === name)?.lateral,
      ),
    );
  const limit = paging ? paging.limit : plan.params.limit;
  const offset = paging ? paging.offset : plan.params.offset;
  return {
    selectList: cols.join(', '),
    joins,
    filteringJoins,
    where,
    group: grouping.groupBy(),
    order: renderOrder(alias, plan.params.order ?? [], params, (relation) => {
      const embed = plan.embeds.find((e) => e.key === relation);
      if (!embed) return undefined;
      const { rel } = embed;
      return {
        schema: embed.plan.source.schema ?? 'public',
        table: rel.target,
        alias: `${embed.lateral}_o`,
        on: rel.sourceColumns.map((c, i) => [c, rel.targetColumns[i] ?? ''] as [string, string]),
      };
    }),
    paging: renderPaging(limit, offset, params),
  };
}

export function whereSql(where: string[]): string {
  return where.length ? ` WHERE ${where.join(' AND ')}` : '';
}

function renderEmbedJoin(parentAlias: string, embed: EmbedPlan, params: Params): string {
  const { rel, plan } = embed;
  const child = quoteIdent(plan.alias);
  const parent = quoteIdent(parentAlias);
  const schema = plan.source.schema ?? 'public';
  let from = `${qualified(schema, plan.source.name)} AS ${child}`;
  let on: string[];
  if (rel.computed) {
    // A computed relationship: the rows the function returns for the parent's row (computed.ts).
    from = `${qualified(schema, rel.computed)}(${parent}) AS ${child}`;
    on = [];
  } else if (rel.junction) {
    // Many-to-many: target rows joined to the junction rows that point at the parent.
    const j = quoteIdent(`${embed.lateral}_j`);
    const jt = rel.junction;
    const joinOn = rel.targetColumns.map(
      (col, i) => `${j}.${quoteIdent(jt.targetColumns[i] ?? '')} = ${child}.${quoteIdent(col)}`,
    );
    from += ` INNER JOIN ${qualified(schema, jt.table)} AS ${j} ON ${joinOn.join(' AND ')}`;
    on = rel.sourceColumns.map(
      (col, i) => `${j}.${quoteIdent(jt.sourceColumns[i] ?? '')} = ${parent}.${quoteIdent(col)}`,
    );
  } else {
    on = rel.sourceColumns.map(
      (col, i) =>
        `${child}.${quoteIdent(rel.targetColumns[i] ?? '')} = ${parent}.${quoteIdent(col)}`,
    );
  }
  const lvl = renderLevel(
    plan,
    params,
    on,
    rel.toOne ? { limit: undefined, offset: undefined } : undefined,
  );
  // A count embed aggregates: ordering and paging its rows would not mean anything.
  const plain = !rel.toOne && !plan.select.some((item) => item.kind === 'count');
  const sub = `SELECT ${lvl.selectList} FROM ${from}${lvl.joins}${whereSql(lvl.where)}${lvl.group}${plain ? lvl.order + lvl.paging : ''}`;
  const e = quoteIdent(embed.lateral);
  if (embed.spread) return spreadJoin(embed, sub);
  const agg = rel.toOne ? 'row_to_json(_s)' : 'json_agg(_s)';
  return ` ${embed.inner ? 'INNER' : 'LEFT'} JOIN LATERAL (SELECT ${agg} AS "j" FROM (${sub}) AS _s) AS ${e} ON ${embed.inner ? `${e}."j" IS NOT NULL` : 'TRUE'}`;
}

export interface ReadSqlOptions {
  /** FROM item of the root, aliased as the plan's alias. */
  from: string;
  /** SQL placed before SELECT (a `WITH _m AS (...)` for mutations). */
  prefix?: string;
  stripNulls?: boolean;
  count?: boolean;
  limit?: number;
  offset?: number;
  /** CSV body (header from the first row's keys, rows as record text), as PostgREST builds it. */
  csv?: boolean;
  /** GeoJSON FeatureCollection body built with this ST_AsGeoJSON (server/rest/geojson.ts). */
  geojson?: string;
  /** Aggregate this column's values instead of whole rows (set-returning scalar functions). */
  aggregateColumn?: string;
  /** ORDER BY used when the request gives none (mutations keep the RETURNING order). */
  defaultOrder?: string;
  /** Extra output columns (`, expr AS name`) computed next to the body. */
  extra?: string;
}

/**
 * One statement that returns `body` (the JSON text, built by Postgres), `n` (rows in this
 * page) and, when asked, `total` (rows matching without paging).
 */
export function buildReadSql(plan: ReadPlan, params: Params, opts: ReadSqlOptions): string {
  const lvl = renderLevel(plan, params, [], { limit: opts.limit, offset: opts.offset });
  const where = whereSql(lvl.where);
  // A grouped result has no row order of its own to keep (aggregates.ts).
  const keepOrder = opts.defaultOrder && !lvl.group;
  const order = lvl.order || (keepOrder ? ` ORDER BY ${opts.defaultOrder}` : '');
  const inner = `SELECT ${lvl.selectList} FROM ${opts.from}${lvl.joins}${where}${lvl.group}${order}${lvl.paging}`;
  const rows = opts.aggregateColumn
    ? `json_agg(_r.${quoteIdent(opts.aggregateColumn)})`
    : 'json_agg(_r)';
  const agg = opts.geojson
    ? featureCollectionSql(opts.geojson, '_r')
    : opts.stripNulls
      ? `json_strip_nulls(${rows})`
      : rows;
  const total = opts.count
    ? `, (SELECT count(*) FROM ${opts.from}${lvl.filteringJoins}${where})::int8 AS total`
    : ', NULL::int8 AS total';
  if (opts.csv) {
    const rowText = `substring(_r::text, 2, length(_r::text) - 2)`;
    const header = `(SELECT coalesce(string_agg(k, ','), '') FROM json_object_keys(_x.a -> 0) AS k)`;
    const aggregate = `SELECT json_agg(_r) AS a, coalesce(string_agg(${rowText}, E'\\n'), '') AS b, count(_r)::int8 AS n${total}${opts.extra ?? ''} FROM (${inner}) AS _r`;
    return `${opts.prefix ?? ''}SELECT ${header} || E'\\n' || _x.b AS body, _x.* FROM (${aggregate}) AS _x`;
  }
  return `${opts.prefix ?? ''}SELECT coalesce(${agg}, '[]')::text AS body, count(_r)::int8 AS n${total}${opts.extra ?? ''} FROM (${inner}) AS _r`;
}

/** The root's row filter alone (for EXPLAIN-based counts and mutations). */
export function buildCountSql(plan: ReadPlan, params: Params, from: string): string {
  const lvl = renderLevel(plan, params);
  return `SELECT 1 FROM ${from}${lvl.filteringJoins}${whereSql(lvl.where)}`;
}
