import type { Queryable } from '../db/database';
import { viewLinks, VIEW_RULES_SQL, type ForeignKeyRef } from './view-relationships';

/** What PostgREST keeps in its schema cache, for one exposed schema (server/rest/schemas.ts). */
export interface ColumnInfo {
  name: string;
  /** Type name (pg_type.typname) and its schema, for safe casts. */
  type: string;
  typeSchema: string;
  notNull: boolean;
  hasDefault: boolean;
}

export interface Relationship {
  constraint: string;
  /** true when the embedded side returns one row (many-to-one or one-to-one). */
  toOne: boolean;
  kind: 'm2o' | 'o2m' | 'o2o' | 'm2m';
  /** The table being embedded. */
  target: string;
  /** Column pairs: source (parent) column = target (embedded) column. */
  sourceColumns: string[];
  targetColumns: string[];
  /** Many-to-many: the junction table, its columns pointing at the parent and at the target. */
  junction?: {
    table: string;
    sourceColumns: string[];
    targetColumns: string[];
    constraints: [string, string];
  };
  /** A computed relationship: the function (of the parent's row) the rows come from (computed.ts). */
  computed?: string;
}

export interface TableInfo {
  name: string;
  /** The schema it lives in (the cache's own). */
  schema: string;
  kind: 'table' | 'view';
  columns: Map<string, ColumnInfo>;
  primaryKey: string[];
  relationships: Relationship[];
}

export interface FunctionParam {
  name: string;
  type: string;
  typeSchema: string;
  hasDefault: boolean;
}

export interface FunctionInfo {
  name: string;
  params: FunctionParam[];
  returnsSet: boolean;
  returnsVoid: boolean;
  /** Scalar return (one value, or a set of values). */
  returnsScalar: boolean;
  /** Columns of the returned rows when composite (table type, OUT params or RETURNS TABLE). */
  returnColumns?: Map<string, ColumnInfo>;
  /** Public table whose rowtype is returned (relationships usable for embedding). */
  returnTable?: string;
  volatile: boolean;
  /** `ROWS n` of a set-returning function (1 makes a computed relationship to-one). */
  rows?: number;
}

export interface SchemaCache {
  /** The schema this cache describes (`public`, or another of `dbSchemas`). */
  name: string;
  tables: Map<string, TableInfo>;
  functions: Map<string, FunctionInfo[]>;
  /** Type names usable in `::cast` (pg_catalog and public), name → schema. */
  types: Map<string, string>;
}

const TABLES_SQL = `
select c.oid::int8 as oid, c.relname as name, c.relkind as kind
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p', 'c')`;

const COLUMNS_SQL = `
select a.attrelid::int8 as rel, a.attname as name, a.attnum::int as num, a.attnotnull as not_null,
       a.atthasdef as has_default, t.typname as type, tn.nspname as type_schema
from pg_attribute a
join pg_class c on c.oid = a.attrelid
join pg_namespace n on n.oid = c.relnamespace
join pg_type t on t.oid = a.atttypid
join pg_namespace tn on tn.oid = t.typnamespace
where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p', 'c') and a.attnum > 0 and not a.attisdropped
order by a.attrelid, a.attnum`;

const UNIQUE_SQL = `
select i.indrelid::int8 as rel, i.indisprimary as primary, i.indkey::int2[] as cols
from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and i.indisunique and i.indpred is null and i.indexprs is null`;

const FKS_SQL = `
select con.conname as name, con.conrelid::int8 as rel, con.confrelid::int8 as frel, con.conkey::int2[] as cols, con.confkey::int2[] as fcols
from pg_constraint con
join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
join pg_class fc on fc.oid = con.confrelid join pg_namespace fn on fn.oid = fc.relnamespace
where con.contype = 'f' and n.nspname = $1 and fn.nspname = $1
order by con.conname`;

const FUNCTIONS_SQL = `
select p.proname as name, p.pronargs::int as nargs, p.pronargdefaults::int as ndefaults,
       coalesce(p.proargnames, '{}'::text[]) as argnames, coalesce(p.proargmodes::text[], '{}'::text[]) as argmodes,
       coalesce(p.proallargtypes::int8[], p.proargtypes::int8[]) as alltypes, p.proretset as retset,
       p.provolatile as volatility, p.prorows::float8 as rows, rt.typname as rettype, rt.typtype as rettyptype, rt.typrelid::int8 as retrel
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type rt on rt.oid = p.prorettype
where n.nspname = $1 and p.prokind = 'f' and rt.typname not in ('trigger', 'event_trigger')`;

const TYPES_SQL = `
select t.oid::int8 as oid, t.typname as name, n.nspname as schema
from pg_type t join pg_namespace n on n.oid = t.typnamespace
where n.nspname in ('pg_catalog', 'public', 'extensions', $1)`;

type Row = Record<string, unknown>;
type Side = { table: TableInfo; cols: string[] };
const num = (v: unknown) => Number(v);
const ints = (v: unknown): number[] =>
  Array.isArray(v)
    ? v.map(Number)
    : String(v ?? '')
        .replace(/[{}]/g, '')
        .split(/[ ,]/)
        .filter(Boolean)
        .map(Number);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** The schema cache of one schema (`name`): its tables, relationships and functions. */
export async function loadSchemaCache(db: Queryable, name = 'public'): Promise<SchemaCache> {
  const [tablesR, columnsR, uniqueR, fksR, functionsR, typesR, viewRulesR] = [
    await db.query<Row>(TABLES_SQL, [name]),
    await db.query<Row>(COLUMNS_SQL, [name]),
    await db.query<Row>(UNIQUE_SQL, [name]),
    await db.query<Row>(FKS_SQL, [name]),
    await db.query<Row>(FUNCTIONS_SQL, [name]),
    await db.query<Row>(TYPES_SQL, [name]),
    await db.query<Row>(VIEW_RULES_SQL, [name]),
  ];
  const tables = new Map<string, TableInfo>();
  const byOid = new Map<number, TableInfo>();
  const attnames = new Map<number, Map<number, string>>();
  for (const r of tablesR.rows) {
    const t: TableInfo = {
      name: String(r.name),
      schema: name,
      kind: r.kind === 'v' || r.kind === 'm' ? 'view' : 'table',
      columns: new Map(),
      primaryKey: [],
      relationships: [],
    };
    // Composite types ('c') only describe function results; they are not API resources.
    if (r.kind !== 'c') tables.set(t.name, t);
    byOid.set(num(r.oid), t);
    attnames.set(num(r.oid), new Map());
  }
  for (const r of columnsR.rows) {
    const t = byOid.get(num(r.rel));
    if (!t) continue;
    const name = String(r.name);
    t.columns.set(name, {
      name,
      type: String(r.type),
      typeSchema: String(r.type_schema),
      notNull: Boolean(r.not_null),
      hasDefault: Boolean(r.has_default),
    });
    attnames.get(num(r.rel))?.set(num(r.num), name);
  }
  const colNames = (rel: number, nums: number[]) =>
    nums.map((n) => attnames.get(rel)?.get(n) ?? '');
  const uniques = new Map<number, string[][]>();
  for (const r of uniqueR.rows) {
    const rel = num(r.rel);
    const cols = colNames(rel, ints(r.cols));
    const t = byOid.get(rel);
    if (t && r.primary) t.primaryKey = cols;
    uniques.set(rel, [...(uniques.get(rel) ?? []), cols]);
  }
  const isUnique = (rel: number, cols: string[]) =>
    (uniques.get(rel) ?? []).some(
      (u) => u.length === cols.length && u.every((c) => cols.includes(c)),
    );
  const fksByTable = new Map<
    number,
    { name: string; target: TableInfo; cols: string[]; fcols: string[] }[]
  >();
  /** A foreign key's many-to-one relationship and its inverse (one-to-many or one-to-one). */
  const link = (constraint: string, src: Side, dst: Side, oneToOne: boolean) => {
    src.table.relationships.push({
      constraint,
      toOne: true,
      kind: 'm2o',
      target: dst.table.name,
      sourceColumns: src.cols,
      targetColumns: dst.cols,
    });
    dst.table.relationships.push({
      constraint,
      toOne: oneToOne,
      kind: oneToOne ? 'o2o' : 'o2m',
      target: src.table.name,
      sourceColumns: dst.cols,
      targetColumns: src.cols,
    });
  };
  const fkRefs: ForeignKeyRef[] = [];
  for (const r of fksR.rows) {
    const src = byOid.get(num(r.rel));
    const dst = byOid.get(num(r.frel));
    if (!src || !dst) continue;
    const cols = colNames(num(r.rel), ints(r.cols));
    const fcols = colNames(num(r.frel), ints(r.fcols));
    const constraint = String(r.name);
    const oneToOne = isUnique(num(r.rel), cols);
    const fkRef = { constraint, rel: num(r.rel), cols: ints(r.cols), frel: num(r.frel) };
    fkRefs.push({ ...fkRef, fcols: ints(r.fcols), oneToOne });
    fksByTable.set(num(r.rel), [
      ...(fksByTable.get(num(r.rel)) ?? []),
      { name: constraint, target: dst, cols, fcols },
    ]);
    link(constraint, { table: src, cols }, { table: dst, cols: fcols }, oneToOne);
  }
  for (const v of viewLinks(viewRulesR.rows, attnames, fkRefs)) {
    const from = byOid.get(v.from.rel);
    const to = byOid.get(v.to.rel);
    if (from && to)
      link(
        v.fk.constraint,
        { table: from, cols: v.from.cols },
        { table: to, cols: v.to.cols },
        v.fk.oneToOne,
      );
  }
  // Junction tables: two foreign keys whose columns all belong to one primary or unique key.
  for (const [rel, fks] of fksByTable) {
    const junction = byOid.get(rel);
    if (!junction) continue;
    for (const a of fks) {
      for (const b of fks) {
        if (a === b) continue;
        const cols = [...a.cols, ...b.cols];
        if (!(uniques.get(rel) ?? []).some((u) => cols.every((c) => u.includes(c)))) continue;
        a.target.relationships.push({
          constraint: `${a.name}/${b.name}`,
          toOne: false,
          kind: 'm2m',
          target: b.target.name,
          sourceColumns: a.fcols,
          targetColumns: b.fcols,
          junction: {
            table: junction.name,
            sourceColumns: a.cols,
            targetColumns: b.cols,
            constraints: [a.name, b.name],
          },
        });
      }
    }
  }
  const types = new Map<string, string>();
  const typeByOid = new Map<number, { name: string; schema: string }>();
  for (const r of typesR.rows) {
    typeByOid.set(num(r.oid), { name: String(r.name), schema: String(r.schema) });
    if (
      !types.has(String(r.name)) ||
      r.schema === 'pg_catalog' ||
      (r.schema === name && types.get(String(r.name)) !== 'pg_catalog')
    )
      types.set(String(r.name), String(r.schema));
  }
  const functions = new Map<string, FunctionInfo[]>();
  for (const r of functionsR.rows) {
    const fn = buildFunction(r, typeByOid, byOid);
    if (fn) functions.set(fn.name, [...(functions.get(fn.name) ?? []), fn]);
  }
  return { name, tables, functions, types };
}

function buildFunction(
  r: Row,
  typeByOid: Map<number, { name: string; schema: string }>,
  byOid: Map<number, TableInfo>,
): FunctionInfo | undefined {
  const names = strs(r.argnames);
  const modes = strs(r.argmodes);
  const types = ints(r.alltypes);
  const nargs = num(r.nargs);
  const params: FunctionParam[] = [];
  const outColumns = new Map<string, ColumnInfo>();
  for (let i = 0; i < types.length; i++) {
    const mode = modes[i] ?? 'i';
    const type = typeByOid.get(types[i] ?? 0);
    if (!type) return undefined;
    const name = names[i] ?? '';
    if (mode === 'i' || mode === 'b' || mode === 'v')
      params.push({ name, type: type.name, typeSchema: type.schema, hasDefault: false });
    if (mode === 'o' || mode === 'b' || mode === 't')
      outColumns.set(name, {
        name,
        type: type.name,
        typeSchema: type.schema,
        notNull: false,
        hasDefault: false,
      });
  }
  const ndefaults = num(r.ndefaults);
  for (let i = nargs - ndefaults; i < nargs; i++) {
    const p = params[i];
    if (p) p.hasDefault = true;
  }
  const retTable = byOid.get(num(r.retrel));
  const composite =
    r.rettyptype === 'c' || outColumns.size > 1 || (r.rettype === 'record' && outColumns.size > 0);
  return {
    name: String(r.name),
    params,
    returnsSet: Boolean(r.retset),
    returnsVoid: r.rettype === 'void',
    returnsScalar: !composite && r.rettype !== 'void',
    returnColumns: retTable ? retTable.columns : composite ? outColumns : undefined,
    returnTable: retTable?.name,
    volatile: r.volatility === 'v',
    rows: num(r.rows),
  };
}
