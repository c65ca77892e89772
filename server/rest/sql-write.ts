import { qualified, quoteIdent } from './ident';
import type { Params } from './sql-expr';
import type { TableInfo } from './schema-cache';

export const MUTATION_ALIAS = 'pgrst_m';

export interface ReturningOptions {
  returning: boolean;
  /**
   * The columns to return (PostgREST's `inferColsEmbedNeeds`); undefined means `*`. Postgres
   * checks SELECT privilege on exactly these, so a narrow `select` works under column grants.
   */
  returnColumns?: string[];
}

/** The transaction setting an upsert counts its updated rows in (see `insertSql`). */
export const UPDATED_SETTING = 'pgrst.updated';

/** Reads what `insertSql`'s `countUpdates` counted, in the same transaction. */
export const UPDATED_COUNT_SQL = `SELECT coalesce(nullif(current_setting('${UPDATED_SETTING}', true), '')::int, 0) AS updated`;

function returningSql(opts: ReturningOptions): string {
  if (!opts.returning) return '';
  const a = quoteIdent(MUTATION_ALIAS);
  const items =
    opts.returnColumns === undefined
      ? [`${a}.*`]
      : opts.returnColumns.map((c) => `${a}.${quoteIdent(c)}`);
  // Nothing to return (an empty `select=`): one constant keeps the row count.
  if (items.length === 0) items.push('1 AS "pgrst_row"');
  return ` RETURNING ${items.join(', ')}`;
}

export interface InsertOptions extends ReturningOptions {
  columns: string[];
  rows: Record<string, unknown>[];
  /**
   * `Prefer: missing=default`: the defaults object (column-defaults.ts defaultsObjectSql) merged
   * under every row, as PostgREST does; undefined: absent keys are NULL.
   */
  missingDefault?: string;
  onConflict?: { target: string[]; action: 'merge' | 'ignore' };
  /**
   * Count the rows `ON CONFLICT DO UPDATE` updates in a transaction setting, as PostgREST counts
   * upserted rows (a `set_config` in the DO UPDATE's WHERE): inserted = affected - updated. Not
   * `xmax = 0` in RETURNING, which needs SELECT on the whole table (system columns).
   */
  countUpdates?: boolean;
}

/**
 * INSERT the JSON rows. Values go in as ONE json parameter and Postgres converts them with
 * json_populate_recordset, like PostgREST. With `missing=default`, each row is laid over the
 * columns' defaults first (PostgREST's `pgrst_json_defs`), in the body's order.
 */
export function insertSql(table: TableInfo, opts: InsertOptions, params: Params): string {
  const target = `${qualified(table.schema, table.name)} AS ${quoteIdent(MUTATION_ALIAS)}`;
  const cols = opts.columns.map(quoteIdent);
  const rowType = `NULL::${qualified(table.schema, table.name)}`;
  let source: string;
  if (opts.missingDefault !== undefined && cols.length) {
    const p = params.add(JSON.stringify(opts.rows));
    const rows = `(SELECT coalesce(jsonb_agg(${opts.missingDefault} || _e.v ORDER BY _e.i), '[]') FROM jsonb_array_elements(${p}::jsonb) WITH ORDINALITY AS _e(v, i))`;
    source = `SELECT ${cols.join(', ')} FROM jsonb_populate_recordset(${rowType}, ${rows}) AS _p`;
  } else {
    source = `SELECT ${cols.join(', ')} FROM json_populate_recordset(${rowType}, ${params.add(JSON.stringify(opts.rows))}::json) AS _p`;
  }
  let sql = `INSERT INTO ${target}${cols.length ? ` (${cols.join(', ')})` : ''} ${source}`;
  if (opts.onConflict) {
    const conflict = ` ON CONFLICT (${opts.onConflict.target.map(quoteIdent).join(', ')})`;
    if (opts.onConflict.action === 'ignore' || cols.length === 0) sql += `${conflict} DO NOTHING`;
    else {
      sql += `${conflict} DO UPDATE SET ${cols.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`;
      if (opts.countUpdates) {
        const count = `coalesce(nullif(current_setting('${UPDATED_SETTING}', true), '')::int, 0) + 1`;
        sql += ` WHERE set_config('${UPDATED_SETTING}', (${count})::text, true) IS NOT NULL`;
      }
    }
  }
  return sql + returningSql(opts);
}

export function updateSql(
  table: TableInfo,
  columns: string[],
  body: Record<string, unknown>,
  where: string[],
  opts: ReturningOptions,
  params: Params,
  /** `Prefer: missing=default` with `?columns=`: the defaults object (as insertSql's). */
  missingDefault?: string,
): string {
  const rowType = `NULL::${qualified(table.schema, table.name)}`;
  const sets = columns.map((c) => `${quoteIdent(c)} = "pgrst_body".${quoteIdent(c)}`).join(', ');
  const p = params.add(JSON.stringify(body));
  const from =
    missingDefault === undefined
      ? ` FROM json_populate_record(${rowType}, ${p}::json) AS "pgrst_body"`
      : ` FROM jsonb_populate_record(${rowType}, ${missingDefault} || ${p}::jsonb) AS "pgrst_body"`;
  const cond = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  return `UPDATE ${qualified(table.schema, table.name)} AS ${quoteIdent(MUTATION_ALIAS)} SET ${sets}${from}${cond}${returningSql(opts)}`;
}

export function deleteSql(table: TableInfo, where: string[], opts: ReturningOptions): string {
  const cond = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  return `DELETE FROM ${qualified(table.schema, table.name)} AS ${quoteIdent(MUTATION_ALIAS)}${cond}${returningSql(opts)}`;
}
