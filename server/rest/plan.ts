import {
  checkAggregatesAllowed,
  hasAggregate,
  hoistSpreadAggregates,
  planAggregate,
  WHOLE_ROW,
  type PlannedAggregate,
} from './aggregates';
import type { Condition, Field, Filter, LevelParams, SelectItem } from './ast';
import { computedRelationship, isComputedField } from './computed';
import { RestError, columnNotFound } from './errors';
import { emptyLevel } from './query-params';
import type { ColumnInfo, Relationship, SchemaCache } from './schema-cache';

/** Something rows come from: a table, a view or a function's result. */
export interface Source {
  name: string;
  /** Its schema, where it is a table or view (server/rest/schemas.ts); default `public`. */
  schema?: string;
  columns: Map<string, ColumnInfo>;
  relationships: Relationship[];
  /** The table whose row type the rows have, when not `name` (a function's result). */
  rowType?: string;
}

export type PlannedSelect =
  | {
      kind: 'column';
      field: Field;
      key: string;
      cast?: { schema: string; name: string };
      /** `col.sum()`, `count()` (field `*`): aggregates.ts. */
      aggregate?: PlannedAggregate;
    }
  | { kind: 'embed'; embed: EmbedPlan }
  /** `table(count)`: the number of related rows (`[{"count": n}]`), as on hosted Supabase. */
  | { kind: 'count'; key: string };

export interface EmbedPlan {
  key: string;
  rel: Relationship;
  inner: boolean;
  spread: boolean;
  /** false for `table()` with nothing selected (filtering only). */
  output: boolean;
  lateral: string;
  plan: ReadPlan;
  isNull?: boolean;
  /** To-one spread: the aggregates of its (flattened) keys, applied by the parent (aggregates.ts). */
  hoisted?: Map<string, PlannedAggregate>;
  /** Named as `embed.is.null` / `embed.not.is.null` inside an `or`/`and` tree. */
  inTree?: boolean;
}

export interface ReadPlan {
  source: Source;
  alias: string;
  select: PlannedSelect[];
  embeds: EmbedPlan[];
  params: LevelParams;
}

const CAST_ALIASES: Record<string, string> = {
  int: 'int4',
  integer: 'int4',
  smallint: 'int2',
  bigint: 'int8',
  boolean: 'bool',
  real: 'float4',
  float: 'float8',
  'double precision': 'float8',
  decimal: 'numeric',
  'character varying': 'varchar',
  character: 'bpchar',
  char: 'bpchar',
  timestamp: 'timestamp',
  'timestamp with time zone': 'timestamptz',
};

export function resolveCast(schema: SchemaCache, cast: string): { schema: string; name: string } {
  const isArray = cast.endsWith('[]');
  const base = (isArray ? cast.slice(0, -2) : cast).trim().toLowerCase().replace(/\s+/g, ' ');
  const name = (isArray ? '_' : '') + (CAST_ALIASES[base] ?? base);
  const typeSchema = schema.types.get(name);
  if (!typeSchema) throw new RestError(400, '42704', `type "${cast}" does not exist`);
  return { schema: typeSchema, name };
}

export class Planner {
  private counter = 0;
  constructor(
    private readonly schema: SchemaCache,
    private readonly levels: Map<string, LevelParams>,
    private readonly options: { aggregatesEnabled?: boolean } = {},
  ) {}

  nextAlias(prefix: 't' | 'e'): string {
    return `${prefix}${this.counter++}`;
  }

  /** `label`: the name Postgres would report for this level's rows (PostgREST's `table_1`). */
  plan(source: Source, select: SelectItem[], path: string[] = [], label = source.name): ReadPlan {
    // PostgREST refuses aggregates while planning, before any column is looked at.
    if (path.length === 0 && hasAggregate(select))
      checkAggregatesAllowed(this.options.aggregatesEnabled);
    const params = this.levels.get(path.join('.')) ?? emptyLevel();
    const plan: ReadPlan = {
      source,
      alias: this.nextAlias('t'),
      select: [],
      embeds: [],
      params: { ...params, conditions: [], embedNullness: [] },
    };
    for (const item of select) {
      if (item.kind === 'star') {
        for (const col of source.columns.keys())
          plan.select.push({ kind: 'column', field: { name: col, path: [] }, key: col });
      } else if (item.kind === 'column' && isEmbeddedCount(item, source, path)) {
        if (select.length > 1)
          throw new RestError(
            400,
            'PGRST123',
            'Use of aggregate functions is not allowed',
            "Only 'table(count)' alone is supported",
          );
        plan.select.push({ kind: 'count', key: item.alias ?? 'count' });
      } else if (item.kind === 'column' && item.aggregate) {
        plan.select.push(
          planAggregate(item, item.aggregate, { ...source, name: label }, (c) =>
            resolveCast(this.schema, c),
          ),
        );
      } else if (item.kind === 'column') {
        this.checkField(source, item.field, label);
        const last = item.field.path[item.field.path.length - 1];
        const key = item.alias ?? (last ? last.key : item.field.name);
        plan.select.push({
          kind: 'column',
          field: item.field,
          key,
          cast: item.cast ? resolveCast(this.schema, item.cast) : undefined,
        });
      } else {
        const embed = this.embed(source, item, path);
        if (plan.embeds.some((e) => e.key === embed.key)) {
          // PostgREST names each embed's subquery `<parent>_<name>_<depth>`; Postgres refuses twice.
          const name = `${source.name}_${embed.key}_${path.length + 1}`;
          throw new RestError(400, '42712', `table name "${name}" specified more than once`);
        }
        plan.embeds.push(embed);
        if (embed.output) plan.select.push({ kind: 'embed', embed });
      }
    }
    for (const cond of params.conditions) {
      const embed =
        cond.kind === 'filter' && cond.filter.field.path.length === 0
          ? plan.embeds.find((e) => e.key === cond.filter.field.name)
          : undefined;
      if (embed && cond.kind === 'filter') {
        checkEmbedNullFilter(embed, cond.filter);
        const { operation, negate } = cond.filter;
        embed.isNull = (operation.op === 'is' && operation.value === 'null') !== negate;
      } else {
        this.checkCondition(source, cond, plan.embeds, label);
        plan.params.conditions.push(cond);
      }
    }
    for (const term of params.order ?? []) {
      if (term.relation === undefined) {
        this.checkField(source, term.field, label);
        continue;
      }
      const embed = plan.embeds.find((e) => e.key === term.relation);
      if (!embed) throw notEmbedded(term.relation);
      // (A computed relationship has no join columns to order through: refused as well.)
      if (!embed.rel.toOne || embed.rel.computed) {
        throw new RestError(
          400,
          'PGRST118',
          `A related order on '${term.relation}' is not possible`,
          `'${source.name}' and '${embed.rel.target}' do not form a many-to-one or one-to-one relationship`,
        );
      }
      this.checkField(embed.plan.source, term.field);
    }
    this.checkUnknownEmbeds(plan, path);
    return plan;
  }

  private checkUnknownEmbeds(plan: ReadPlan, path: string[]): void {
    const prefix = path.length ? path.join('.') + '.' : '';
    for (const key of this.levels.keys()) {
      if (!key.startsWith(prefix) || key === path.join('.')) continue;
      const child = key.slice(prefix.length).split('.')[0] ?? '';
      if (!plan.embeds.some((e) => e.key === child)) throw notEmbedded(child);
    }
  }

  /** A column of `source` or a computed field of its row type; `label` names it in the error. */
  checkField(source: Source, field: Field, label = source.name): void {
    if (source.columns.has(field.name)) return;
    if (!isComputedField(this.schema, source.rowType ?? source.name, field.name))
      throw columnNotFound(label, field.name);
  }

  /** Columns of `source`, or (inside a tree) `embed.is.null` / `embed.not.is.null` of `embeds`. */
  checkCondition(
    source: Source,
    cond: Condition,
    embeds: EmbedPlan[] = [],
    label = source.name,
  ): void {
    if (cond.kind === 'logic') {
      for (const child of cond.children) this.checkCondition(source, child, embeds, label);
      return;
    }
    const { field } = cond.filter;
    const embed =
      field.path.length === 0 && !source.columns.has(field.name)
        ? embeds.find((e) => e.key === field.name)
        : undefined;
    if (!embed) return this.checkField(source, field, label);
    checkEmbedNullFilter(embed, cond.filter);
    embed.inTree = true;
  }

  private embed(
    parent: Source,
    item: Extract<SelectItem, { kind: 'embed' }>,
    path: string[],
  ): EmbedPlan {
    const rel = this.relationship(parent, item.target, item.hints);
    const target = this.schema.tables.get(rel.target);
    if (!target) throw noRelationship(parent.name, item.target, this.schema.name);
    const key = item.alias ?? item.target;
    const lateral = this.nextAlias('e');
    // PostgREST aliases an embedded table `<table>_<depth>` (a many-to-many target keeps its name).
    const label = rel.junction ? target.name : `${target.name}_${path.length + 1}`;
    const plan = this.plan(target, item.select, [...path, key], label);
    const embed: EmbedPlan = {
      key,
      rel,
      inner: item.inner,
      spread: item.spread,
      output: item.select.length > 0,
      lateral,
      plan,
    };
    if (item.spread) hoistSpreadAggregates(embed);
    return embed;
  }

  private relationship(parent: Source, target: string, hints: string[]): Relationship {
    const computed = computedRelationship(this.schema, parent.rowType ?? parent.name, target);
    if (computed) return computed;
    const fkColumns = (r: Relationship) => (r.kind === 'm2o' ? r.sourceColumns : r.targetColumns);
    // As PostgREST's findRel: a constraint or FK column as the target names a table, not a view.
    const toView = (r: Relationship) => this.schema.tables.get(r.target)?.kind === 'view';
    let found = parent.relationships.filter(
      (r) =>
        r.target === target ||
        ((r.constraint === target ||
          (r.kind === 'm2o' && r.sourceColumns.length === 1 && r.sourceColumns[0] === target)) &&
          !toView(r)),
    );
    for (const hint of hints) {
      found = found.filter(
        (r) =>
          r.constraint === hint ||
          r.junction?.table === hint ||
          (r.junction?.constraints.includes(hint) ?? false) ||
          (!r.junction && fkColumns(r).length === 1 && fkColumns(r)[0] === hint) ||
          r.target === hint,
      );
    }
    if (
      found.length > 1 &&
      found.every((r) => r.constraint === found[0]?.constraint) &&
      found.every((r) => r.target === parent.name)
    ) {
      // Self-reference named by table: the table name means "rows pointing at me" (one-to-many).
      found = found.filter((r) => r.kind !== 'm2o');
    }
    if (found.length === 1 && found[0]) return found[0];
    if (found.length === 0) throw noRelationship(parent.name, target, this.schema.name);
    throw new RestError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${parent.name}' and '${target}'`,
      found.map((r) => ({
        cardinality: {
          o2m: 'one-to-many',
          o2o: 'one-to-one',
          m2o: 'many-to-one',
          m2m: 'many-to-many',
        }[r.kind],
        embedding: `${parent.name} with ${r.target}`,
        relationship: `${r.constraint} using ${parent.name}(${r.sourceColumns.join(', ')}) and ${r.target}(${r.targetColumns.join(', ')})`,
      })),
      `Try changing '${target}' to one of the following: ${found.map((r) => `'${target}!${r.junction ? r.junction.table : r.constraint}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
    );
  }
}

function isEmbeddedCount(
  item: Extract<SelectItem, { kind: 'column' }>,
  source: Source,
  path: string[],
): boolean {
  return (
    path.length > 0 &&
    item.field.name === 'count' &&
    item.field.path.length === 0 &&
    !item.cast &&
    !source.columns.has('count')
  );
}

/** On an embed, only `is.null` / `not.is.null` (and never on a spread). */
function checkEmbedNullFilter(embed: EmbedPlan, filter: Filter): void {
  const { operation } = filter;
  if (
    embed.spread ||
    operation.op !== 'is' ||
    (operation.value !== 'null' && operation.value !== 'not_null')
  ) {
    throw new RestError(
      400,
      'PGRST120',
      'Bad operator on the embedded resource',
      'Only is null or not is null filters are allowed on embedded resources',
    );
  }
}

function notEmbedded(name: string): RestError {
  return new RestError(
    400,
    'PGRST108',
    `'${name}' is not an embedded resource in this request`,
    null,
    `Verify that '${name}' is included in the 'select' query parameter.`,
  );
}

function noRelationship(parent: string, target: string, schema: string): RestError {
  return new RestError(
    400,
    'PGRST200',
    `Could not find a relationship between '${parent}' and '${target}' in the schema cache`,
    `Searched for a foreign key relationship between '${parent}' and '${target}' in the schema '${schema}', but no matches were found.`,
    null,
  );
}

/**
 * The columns a mutation must RETURN for its representation, as PostgREST infers them
 * (`inferColsEmbedNeeds`): `*` when the select has `*` (undefined here); otherwise the selected
 * columns, the parent-side columns of every embed's join, and the primary key (for `Location`),
 * each once. Order columns are added too, so `order=` on a write never names a missing column.
 */
export function returningColumns(
  select: SelectItem[],
  plan: ReadPlan,
  primaryKey: string[],
): string[] | undefined {
  if (select.some((item) => item.kind === 'star')) return undefined;
  const columns = new Set<string>();
  for (const item of plan.select)
    if (item.kind === 'column' && item.field.name !== WHOLE_ROW) columns.add(item.field.name);
  for (const embed of plan.embeds) for (const c of embed.rel.sourceColumns) columns.add(c);
  for (const term of plan.params.order ?? [])
    if (term.relation === undefined) columns.add(term.field.name);
  for (const c of primaryKey) columns.add(c);
  return [...columns];
}
