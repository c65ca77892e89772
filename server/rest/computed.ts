/**
 * Computed fields and computed relationships (issue 39), as PostgREST has them: functions of the
 * request's schema whose first argument is a table's (or view's) row type.
 *
 * - Computed field: `f(messages) returns <scalar>`, selectable, filterable and orderable as a
 *   column of `messages` (`select=*,blurb_message`), never part of `*`. The SQL is Postgres's own
 *   functional notation, `"t0"."blurb_message"` = `blurb_message("t0")`, exactly what PostgREST
 *   sends, so only the schema check needs to know about it.
 * - Computed relationship: `f(messages) returns setof channels` (to-many) or `returns channels`
 *   / `rows 1` (to-one), embeddable under the function's name (`select=*,f(*)`), joined as
 *   `FROM f("t0")`. As in PostgREST, it prevails over a foreign-key relationship of that name.
 *
 * Other arguments must have defaults (Postgres's functional notation passes only the row).
 */
import type { FunctionInfo, Relationship, SchemaCache } from './schema-cache';

function takesRow(fn: FunctionInfo, rowType: string, schemaName: string): boolean {
  const [first, ...rest] = fn.params;
  return (
    !!first &&
    first.type === rowType &&
    first.typeSchema === schemaName &&
    rest.every((p) => p.hasDefault)
  );
}

/** A computed field `name` of rows of `rowType` (a table or view of the schema `schema`). */
export function isComputedField(schema: SchemaCache, rowType: string, name: string): boolean {
  if (!schema.tables.has(rowType)) return false;
  return (schema.functions.get(name) ?? []).some(
    (fn) =>
      takesRow(fn, rowType, schema.name) &&
      !fn.returnsVoid &&
      (fn.returnsScalar || !fn.returnTable),
  );
}

/** The computed relationship `name` from rows of `rowType`, if a function defines one. */
export function computedRelationship(
  schema: SchemaCache,
  rowType: string,
  name: string,
): Relationship | undefined {
  if (!schema.tables.has(rowType)) return undefined;
  const fn = (schema.functions.get(name) ?? []).find(
    (f) => takesRow(f, rowType, schema.name) && f.returnTable !== undefined,
  );
  if (!fn?.returnTable) return undefined;
  const toOne = !fn.returnsSet || fn.rows === 1;
  return {
    constraint: fn.name,
    toOne,
    kind: toOne ? 'm2o' : 'o2m',
    target: fn.returnTable,
    sourceColumns: [],
    targetColumns: [],
    computed: fn.name,
  };
}
