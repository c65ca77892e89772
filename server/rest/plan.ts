import type { Condition, Field, LevelParams, SelectItem } from './ast';
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
}

export type PlannedSelect =
  | { kind: 'column'; field: Field; key: string; cast?: { schema: string; name: string } }
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
  ) {}

  nextAlias(prefix: 't' | 'e'): string {
    return `${prefix}${this.counter++}`;
  }

  plan(source: Source, select: SelectItem[], path: string[] = []): ReadPlan {
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
      } else if (item.kind === 'column') {
        this.checkField(source, item.field);
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
        const { operation, negate } = cond.filter;
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
        embed.isNull = (operation.value === 'null') !== negate;
      } else {
        this.checkCondition(source, cond);
        plan.params.conditions.push(cond);
      }
    }
    for (const term of params.order ?? []) {
      if (term.relation === undefined) {
        this.checkField(source, term.field);
        continue;
      }
      const embed = plan.embeds.find((e) => e.key === term.relation);
      if (!embed) throw notEmbedded(term.relation);
      if (!embed.rel.toOne) {
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

  checkField(source: Source, field: Field): void {
    if (!source.columns.has(field.name)) throw columnNotFound(source.name, field.name);
  }

  checkCondition(source: Source, cond: Condition): void {
    if (cond.kind === 'filter') this.checkField(source, cond.filter.field);
    else for (const child of cond.children) this.checkCondition(source, child);
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
    const plan = this.plan(target, item.select, [...path, key]);
    if (item.spread && !rel.toOne) {
      throw new RestError(
        400,
        'PGRST119',
        `A spread operation on '${item.target}' is not possible`,
        `'${parent.name}' and '${item.target}' do not form a many-to-one or one-to-one relationship`,
      );
    }
    return {
      key,
      rel,
      inner: item.inner,
      spread: item.spread,
      output: item.select.length > 0,
      lateral,
      plan,
    };
  }

  private relationship(parent: Source, target: string, hints: string[]): Relationship {
    const fkColumns = (r: Relationship) => (r.kind === 'm2o' ? r.sourceColumns : r.targetColumns);
    let found = parent.relationships.filter(
      (r) =>
        r.target === target ||
        r.constraint === target ||
        (r.kind === 'm2o' && r.sourceColumns.length === 1 && r.sourceColumns[0] === target),
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
      found.some((r) => r.target === target)
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

/** The keys a level contributes to its JSON object (spread embeds contribute their children's). */
export function outputKeys(plan: ReadPlan): string[] {
  return plan.select.flatMap((item) =>
    item.kind !== 'embed'
      ? [item.key]
      : item.embed.spread
        ? outputKeys(item.embed.plan)
        : [item.embed.key],
  );
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
  for (const item of plan.select) if (item.kind === 'column') columns.add(item.field.name);
  for (const embed of plan.embeds) for (const c of embed.rel.sourceColumns) columns.add(c);
  for (const term of plan.params.order ?? [])
    if (term.relation === undefined) columns.add(term.field.name);
  for (const c of primaryKey) columns.add(c);
  return [...columns];
}
