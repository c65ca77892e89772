import { describe, expect, it } from 'vitest';
import { RestError } from './errors';
import { quoteIdent } from './ident';
import { Planner } from './plan';
import { parseQuery } from './query-params';
import type { SchemaCache, TableInfo } from './schema-cache';
import { Params } from './sql-expr';
import { buildReadSql } from './sql-read';
import { deleteSql, insertSql, updateSql } from './sql-write';

const col = (name: string, type = 'text') =>
  [name, { name, type, typeSchema: 'pg_catalog', notNull: false, hasDefault: false }] as const;

const bands: TableInfo = {
  name: 'bands',
  schema: 'public',
  kind: 'table',
  columns: new Map([
    col('id', 'int4'),
    col('name'),
    col('meta', 'jsonb'),
    col('search', 'tsvector'),
  ]),
  primaryKey: ['id'],
  relationships: [
    {
      constraint: 'albums_band_id_fkey',
      toOne: false,
      kind: 'o2m',
      target: 'albums',
      sourceColumns: ['id'],
      targetColumns: ['band_id'],
    },
  ],
};
const albums: TableInfo = {
  name: 'albums',
  schema: 'public',
  kind: 'table',
  columns: new Map([col('id', 'int4'), col('band_id', 'int4'), col('title')]),
  primaryKey: ['id'],
  relationships: [
    {
      constraint: 'albums_band_id_fkey',
      toOne: true,
      kind: 'm2o',
      target: 'bands',
      sourceColumns: ['band_id'],
      targetColumns: ['id'],
    },
  ],
};
const schema: SchemaCache = {
  name: 'public',
  tables: new Map([
    ['bands', bands],
    ['albums', albums],
  ]),
  functions: new Map(),
  types: new Map([
    ['text', 'pg_catalog'],
    ['int4', 'pg_catalog'],
  ]),
};

function read(qs: string) {
  const q = parseQuery(new URLSearchParams(qs));
  const plan = new Planner(schema, q.levels).plan(bands, q.select);
  const params = new Params();
  const sql = buildReadSql(plan, params, {
    from: `"public"."bands" AS "${plan.alias}"`,
    count: true,
    limit: q.levels.get('')?.limit,
  });
  return { sql, values: params.values };
}

describe('quoteIdent', () => {
  it('quotes and doubles embedded quotes', () => {
    expect(quoteIdent('a')).toBe('"a"');
    expect(quoteIdent('we"ird; drop table x')).toBe('"we""ird; drop table x"');
    expect(() => quoteIdent('nul\u0000')).toThrow();
  });
});

describe('read SQL', () => {
  it('binds every value and JSON key, quotes every identifier, builds JSON in Postgres', () => {
    const { sql, values } = read(
      "select=id,label:meta->label->>name,albums(title)&name=eq.O'Brien;--&meta->>x=like.*a*&albums.title=in.(a,b)&limit=3",
    );
    expect(sql).toContain('json_agg(_r)');
    expect(sql).toContain('LEFT JOIN LATERAL');
    expect(sql).not.toContain("O'Brien");
    expect(sql).not.toContain("'label'");
    expect(values).toEqual(
      expect.arrayContaining(["O'Brien;--", 'label', 'name', '%a%', '{"a","b"}', 3]),
    );
    expect(sql).toMatch(/"t0"\."name" = \$\d+/);
    expect(sql).toContain('count(*)');
  });

  it('renders !inner as an inner lateral join and embed nullness as a WHERE on the lateral', () => {
    expect(read('select=id,albums!inner(id)').sql).toContain('INNER JOIN LATERAL');
    expect(read('select=id,albums(id)&albums=is.null').sql).toMatch(/"e\d+"\."j" IS NULL/);
  });

  it('checks names against the schema cache before they reach SQL', () => {
    const fail = (qs: string) => {
      try {
        read(qs);
      } catch (err) {
        return err instanceof RestError ? err.code : 'other';
      }
      return 'ok';
    };
    expect(fail('select=nope')).toBe('42703');
    expect(fail('nope=eq.1')).toBe('42703');
    expect(fail('order=nope')).toBe('42703');
    expect(fail('select=*,ghosts(*)')).toBe('PGRST200');
    expect(fail('select=id::evil_type')).toBe('42704');
  });
});

describe('write SQL', () => {
  it('sends the payload as one json parameter', () => {
    const params = new Params();
    const sql = insertSql(
      bands,
      {
        columns: ['id', 'name'],
        rows: [{ id: 1, name: "x'); drop" }],
        returning: true,
        onConflict: { target: ['id'], action: 'merge' },
      },
      params,
    );
    expect(sql).toBe(
      'INSERT INTO "public"."bands" AS "pgrst_m" ("id", "name") SELECT "id", "name" FROM json_populate_recordset(NULL::"public"."bands", $1::json) AS _p ON CONFLICT ("id") DO UPDATE SET "id" = EXCLUDED."id", "name" = EXCLUDED."name" RETURNING "pgrst_m".*',
    );
    expect(params.values).toEqual([JSON.stringify([{ id: 1, name: "x'); drop" }])]);
  });

  it('lays each row over the defaults object with missing=default, in body order', () => {
    const params = new Params();
    const sql = insertSql(
      bands,
      {
        columns: ['id', 'name'],
        rows: [{ id: 1 }],
        missingDefault: "jsonb_build_object('name', 'x')",
        returning: false,
      },
      params,
    );
    expect(sql).toContain(
      `FROM jsonb_populate_recordset(NULL::"public"."bands", (SELECT coalesce(jsonb_agg(jsonb_build_object('name', 'x') || _e.v ORDER BY _e.i), '[]') FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS _e(v, i))) AS _p`,
    );
    expect(params.values).toEqual([JSON.stringify([{ id: 1 }])]);
  });

  it('updates from json_populate_record and deletes with the given conditions', () => {
    const params = new Params();
    expect(
      updateSql(
        bands,
        ['name'],
        { name: 'n' },
        ['"pgrst_m"."id" = $2'],
        { returning: false },
        params,
      ),
    ).toBe(
      'UPDATE "public"."bands" AS "pgrst_m" SET "name" = "pgrst_body"."name" FROM json_populate_record(NULL::"public"."bands", $1::json) AS "pgrst_body" WHERE "pgrst_m"."id" = $2',
    );
    expect(deleteSql(bands, ['TRUE'], { returning: true })).toBe(
      'DELETE FROM "public"."bands" AS "pgrst_m" WHERE TRUE RETURNING "pgrst_m".*',
    );
  });
});
