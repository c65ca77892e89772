/**
 * TypeScript types of the public schema in the shape `supabase gen types typescript` writes, for
 * `createClient<Database>`. Reads a migrated database (in-memory PGlite by default):
 *
 *   npx tsx server/db/gen-types.ts > src/data/remote/database.types.ts
 *   DATABASE_URL=postgres://… npx tsx server/db/gen-types.ts   # from a PostgreSQL instead
 */
import { pathToFileURL } from 'node:url';
import type { Queryable } from './database';

interface ColumnRow {
  relation: string;
  kind: 'r' | 'v' | 'p' | 'm';
  column: string;
  type: string;
  elem: string | null;
  nullable: boolean;
  optional: boolean;
}

interface RelationshipRow {
  name: string;
  relation: string;
  columns: string[];
  referenced: string;
  referenced_columns: string[];
  one_to_one: boolean;
}

interface FunctionRow {
  name: string;
  arg_names: string[] | null;
  arg_types: string[];
  arg_elems: (string | null)[];
  defaults: number;
  returns: string;
  returns_elem: string | null;
  returns_set: boolean;
  returns_relation: string | null;
}

const TS_TYPES: Record<string, string> = {
  bool: 'boolean',
  int2: 'number',
  int4: 'number',
  int8: 'number',
  float4: 'number',
  float8: 'number',
  numeric: 'number',
  oid: 'number',
  json: 'Json',
  jsonb: 'Json',
  void: 'undefined',
};
const STRING_TYPES = new Set([
  'text',
  'varchar',
  'bpchar',
  'uuid',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'citext',
  'bytea',
  'inet',
  'name',
  'char',
]);

function tsType(type: string, elem: string | null): string {
  if (elem) return `${tsType(elem, null)}[]`;
  return TS_TYPES[type] ?? (STRING_TYPES.has(type) ? 'string' : 'unknown');
}

const key = (name: string) => (/^[a-z_][a-z0-9_]*$/i.test(name) ? name : JSON.stringify(name));

async function loadColumns(db: Queryable): Promise<ColumnRow[]> {
  const { rows } = await db.query<ColumnRow>(
    `select c.relname as relation, c.relkind as kind, a.attname as column, t.typname as type,
            case when t.typcategory = 'A' then e.typname end as elem,
            not a.attnotnull or c.relkind = 'v' as nullable,
            (not a.attnotnull or a.atthasdef or a.attidentity <> '') as optional
     from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     join pg_type t on t.oid = a.atttypid
     left join pg_type e on e.oid = t.typelem
     where n.nspname = 'public' and c.relkind in ('r', 'v', 'p', 'm')
     order by c.relname, a.attnum`,
  );
  return rows;
}

async function loadRelationships(db: Queryable): Promise<RelationshipRow[]> {
  const { rows } = await db.query<RelationshipRow>(
    `select con.conname as name, cl.relname as relation, rcl.relname as referenced,
            array(select a.attname::text from unnest(con.conkey) with ordinality k(num, ord)
                  join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.ord) as columns,
            array(select a.attname::text from unnest(con.confkey) with ordinality k(num, ord)
                  join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.ord) as referenced_columns,
            exists (select 1 from pg_constraint u where u.conrelid = con.conrelid and u.contype in ('p', 'u')
                    and (select array_agg(x order by x) from unnest(u.conkey) x) = (select array_agg(x order by x) from unnest(con.conkey) x)) as one_to_one
     from pg_constraint con
     join pg_class cl on cl.oid = con.conrelid
     join pg_class rcl on rcl.oid = con.confrelid
     where con.contype = 'f' and cl.relnamespace = 'public'::regnamespace and rcl.relnamespace = 'public'::regnamespace
     order by cl.relname, con.conname`,
  );
  return rows;
}

async function loadFunctions(db: Queryable): Promise<FunctionRow[]> {
  const { rows } = await db.query<FunctionRow>(
    `select p.proname as name, p.proargnames as arg_names,
            array(select t.typname::text from unnest(p.proargtypes::oid[]) with ordinality a(oid, ord)
                  join pg_type t on t.oid = a.oid order by a.ord) as arg_types,
            array(select case when t.typcategory = 'A' then e.typname::text end
                  from unnest(p.proargtypes::oid[]) with ordinality a(oid, ord)
                  join pg_type t on t.oid = a.oid left join pg_type e on e.oid = t.typelem order by a.ord) as arg_elems,
            p.pronargdefaults as defaults, rt.typname as returns,
            case when rt.typcategory = 'A' then re.typname end as returns_elem,
            p.proretset as returns_set, rc.relname as returns_relation
     from pg_proc p
     join pg_type rt on rt.oid = p.prorettype
     left join pg_type re on re.oid = rt.typelem
     left join pg_class rc on rc.oid = rt.typrelid
     where p.pronamespace = 'public'::regnamespace and p.prokind = 'f'
       and rt.typname not in ('trigger', 'event_trigger')
     order by p.proname`,
  );
  return rows;
}

function fields(columns: ColumnRow[], mode: 'Row' | 'Insert' | 'Update', indent: string): string {
  const lines = [...columns]
    .sort((a, b) => a.column.localeCompare(b.column))
    .map((c) => {
      const type = `${tsType(c.type, c.elem)}${c.nullable ? ' | null' : ''}`;
      const optional = mode === 'Update' || (mode === 'Insert' && c.optional) ? '?' : '';
      return `${indent}${key(c.column)}${optional}: ${type}`;
    });
  return `{\n${lines.join('\n')}\n${indent.slice(2)}}`;
}

function relationships(rels: RelationshipRow[], indent: string): string {
  if (rels.length === 0) return '[]';
  const items = rels.map(
    (r) => `${indent}{
${indent}  foreignKeyName: ${JSON.stringify(r.name)}
${indent}  columns: ${JSON.stringify(r.columns)}
${indent}  isOneToOne: ${r.one_to_one}
${indent}  referencedRelation: ${JSON.stringify(r.referenced)}
${indent}  referencedColumns: ${JSON.stringify(r.referenced_columns)}
${indent}},`,
  );
  return `[\n${items.join('\n')}\n${indent.slice(2)}]`;
}

/** The generated file's text. */
export async function generateTypes(db: Queryable): Promise<string> {
  const [columns, rels, functions] = await Promise.all([
    loadColumns(db),
    loadRelationships(db),
    loadFunctions(db),
  ]);
  const byRelation = new Map<string, ColumnRow[]>();
  for (const c of columns) byRelation.set(c.relation, [...(byRelation.get(c.relation) ?? []), c]);
  const tables: string[] = [];
  const views: string[] = [];
  for (const [name, cols] of [...byRelation].sort(([a], [b]) => a.localeCompare(b))) {
    const own = rels.filter((r) => r.relation === name);
    const isTable = cols.some((c) => c.kind === 'r' || c.kind === 'p');
    const modes = isTable ? (['Row', 'Insert', 'Update'] as const) : (['Row'] as const);
    const body = modes.map((m) => `        ${m}: ${fields(cols, m, '          ')}`).join('\n');
    (isTable ? tables : views).push(
      `      ${key(name)}: {\n${body}\n        Relationships: ${relationships(own, '          ')}\n      }`,
    );
  }
  const fns = functions.map((f) => {
    const args = f.arg_types.map((type, i) => {
      const optional = i >= f.arg_types.length - f.defaults ? '?' : '';
      return `${key(f.arg_names?.[i] ?? `arg${i}`)}${optional}: ${tsType(type, f.arg_elems[i] ?? null)}`;
    });
    const row = f.returns_relation ? byRelation.get(f.returns_relation) : undefined;
    let returns = row ? fields(row, 'Row', '            ') : tsType(f.returns, f.returns_elem);
    if (f.returns_set) returns = `${returns}[]`;
    const argsType = args.length === 0 ? 'never' : `{ ${args.join('; ')} }`;
    return `      ${key(f.name)}: {\n        Args: ${argsType}\n        Returns: ${returns}\n      }`;
  });
  const section = (items: string[]) =>
    items.length === 0 ? '{\n      [_ in never]: never\n    }' : `{\n${items.join('\n')}\n    }`;
  return `// Generated by server/db/gen-types.ts from the migrated database. Do not edit.
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];

export type Database = {
  public: {
    Tables: ${section(tables)}
    Views: ${section(views)}
    Functions: ${section(fns)}
    Enums: {
      [_ in never]: never
    }
    CompositeTypes: {
      [_ in never]: never
    }
  }
};

type PublicSchema = Database['public'];
export type Tables<T extends keyof (PublicSchema['Tables'] & PublicSchema['Views'])> =
  (PublicSchema['Tables'] & PublicSchema['Views'])[T] extends { Row: infer R } ? R : never;
export type TablesInsert<T extends keyof PublicSchema['Tables']> = PublicSchema['Tables'][T]['Insert'];
export type TablesUpdate<T extends keyof PublicSchema['Tables']> = PublicSchema['Tables'][T]['Update'];
`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { openAndMigrate } = await import('./migrate');
  const db = await openAndMigrate({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: 'memory' });
  try {
    process.stdout.write(await generateTypes(db));
  } finally {
    await db.close();
  }
}
