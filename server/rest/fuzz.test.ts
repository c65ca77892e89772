import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestError } from './errors';
import { Planner } from './plan';
import { parseQuery } from './query-params';
import type { SchemaCache, TableInfo } from './schema-cache';
import { Params } from './sql-expr';
import { buildReadSql } from './sql-read';
import { startHarness, type RestHarness } from './test-support';

const col = (name: string, type = 'text') =>
  [name, { name, type, typeSchema: 'pg_catalog', notNull: false, hasDefault: false }] as const;
const bands: TableInfo = {
  name: 'fx_bands',
  schema: 'public',
  kind: 'table',
  columns: new Map([
    col('id', 'int4'),
    col('name'),
    col('meta', 'jsonb'),
    col('tags', '_text'),
    col('search', 'tsvector'),
  ]),
  primaryKey: ['id'],
  relationships: [
    {
      constraint: 'fx_albums_band_id_fkey',
      toOne: false,
      kind: 'o2m',
      target: 'fx_albums',
      sourceColumns: ['id'],
      targetColumns: ['band_id'],
    },
  ],
};
const albums: TableInfo = {
  name: 'fx_albums',
  schema: 'public',
  kind: 'table',
  columns: new Map([col('id', 'int4'), col('band_id', 'int4'), col('title')]),
  primaryKey: ['id'],
  relationships: [
    {
      constraint: 'fx_albums_band_id_fkey',
      toOne: true,
      kind: 'm2o',
      target: 'fx_bands',
      sourceColumns: ['band_id'],
      targetColumns: ['id'],
    },
  ],
};
const schema: SchemaCache = {
  name: 'public',
  tables: new Map([
    ['fx_bands', bands],
    ['fx_albums', albums],
  ]),
  functions: new Map(),
  types: new Map([
    ['text', 'pg_catalog'],
    ['int4', 'pg_catalog'],
  ]),
};

/** Every bare word the SQL builder may emit; anything else would be input leaking into SQL. */
const VOCABULARY = new Set(
  (
    'SELECT FROM WHERE AND OR NOT AS ON TRUE FALSE NULL IS IN ANY ALL LIMIT OFFSET ORDER BY ASC DESC NULLS FIRST LAST LEFT INNER JOIN LATERAL ' +
    'coalesce json_agg json_strip_nulls row_to_json count int8 int4 text json regconfig CAST LIKE ILIKE DISTINCT UNKNOWN ' +
    'to_tsvector to_tsquery plainto_tsquery phraseto_tsquery websearch_to_tsquery _r _s COALESCE total n body j'
  ).split(' '),
);

function leakedWords(sql: string): string[] {
  const withoutIdents = sql
    .replace(/"(?:[^"]|"")*"/g, ' ')
    .replace(/\$\d+/g, ' ')
    .replace(/'\[\]'/g, ' ');
  const words = withoutIdents.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
  return words.filter((w) => !VOCABULARY.has(w));
}

const piece = fc.oneof(
  fc.constantFrom(
    'id',
    'name',
    'meta',
    'tags',
    'search',
    'fx_albums',
    'title',
    'band_id',
    'nope',
    '"q""x"',
    'drop table',
    "o'hare",
  ),
  fc.constantFrom(
    'eq.',
    'not.',
    'in.(',
    ')',
    '(',
    ',',
    '.',
    ':',
    '::',
    '->',
    '->>',
    '!inner',
    '!',
    '*',
    '"',
    'or=',
    'and(',
    'is.null',
    'fts(english).',
    'cs.{',
    '}',
    'like.*',
  ),
  fc.string({ maxLength: 6 }),
);
const text = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(''));
const key = fc.oneof(
  fc.constantFrom(
    'select',
    'order',
    'limit',
    'offset',
    'or',
    'and',
    'not.or',
    'id',
    'name',
    'meta->>a',
    'fx_albums.title',
    'fx_albums.order',
    'fx_albums',
    'tags',
  ),
  text,
);
const validish = fc.oneof(
  fc.tuple(
    fc.constantFrom('id', 'name', 'meta->>a', 'fx_albums.title', 'tags'),
    fc
      .tuple(
        fc.constantFrom('eq.', 'not.like.', 'in.(', 'ilike(any).{', 'fts(english).', 'cs.{'),
        fc.string({ maxLength: 8 }),
      )
      .map(([o, v]) => o + v),
  ),
  fc.tuple(
    fc.constant('select'),
    fc.constantFrom(
      'id,name',
      '*,fx_albums(*)',
      'x:name,meta->a->>b::text',
      'fx_albums!inner(title)',
      'id,"na""me"',
    ),
  ),
  fc.tuple(
    fc.constantFrom('or', 'and', 'not.or'),
    fc.string({ maxLength: 8 }).map((v) => `(name.eq.${v},id.gt.1)`),
  ),
  fc.tuple(fc.constant('order'), fc.constantFrom('id.desc', 'name.asc.nullslast,id', 'meta->>x')),
);
const queryString = fc
  .array(fc.oneof(validish, fc.tuple(key, text)), { maxLength: 5 })
  .map((pairs) => new URLSearchParams(pairs).toString());

describe('fuzzed query strings', () => {
  it('either fail with a 4xx RestError or build SQL whose only text is the builder’s own', () => {
    let built = 0;
    fc.assert(
      fc.property(queryString, (qs) => {
        try {
          const q = parseQuery(new URLSearchParams(qs));
          const plan = new Planner(schema, q.levels).plan(bands, q.select);
          const sql = buildReadSql(plan, new Params(), {
            from: '"public"."fx_bands" AS "t0"',
            count: true,
          });
          expect(leakedWords(sql)).toEqual([]);
          built++;
        } catch (err) {
          if (!(err instanceof RestError)) throw err;
          expect(err.status).toBeLessThan(500);
        }
      }),
      { numRuns: 2000 },
    );
    // The property must also reach the builder, not only the parser's error paths.
    expect(built).toBeGreaterThan(200);
  });
});

describe('fuzzed requests against the server', () => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('never answer 500 and never change data', async () => {
    await fc.assert(
      fc.asyncProperty(
        queryString,
        fc.constantFrom('fx_bands', 'fx_albums', 'rpc/fx_add', 'rpc/fx_bands_from'),
        async (qs, path) => {
          const res = await h.rest(`/${path}?${qs}`);
          await res.text();
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
    const count = await h.db.query<{ n: string }>(
      'select count(*)::text as n from public.fx_bands',
    );
    expect(count.rows[0]?.n).toBe('5');
  }, 120_000);

  it('never answer 500 to random writes and RPC calls with random bodies (NUL and binary included)', async () => {
    const service = {
      apikey: h.keys.serviceRoleKey,
      Authorization: `Bearer ${h.keys.serviceRoleKey}`,
    };
    const raw = fc.string({ unit: 'binary', maxLength: 6 });
    const body = fc.oneof(
      fc.json({ maxDepth: 2 }),
      raw,
      fc.constantFrom('{"name":"a\\u0000b","id":77}', '[{"id":1},{"x":2}]', '{"a":1,"b":"x"}'),
    );
    const pairs = fc.array(fc.tuple(fc.oneof(key, raw), fc.oneof(text, raw)), { maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(
        pairs,
        fc.constantFrom('POST', 'PATCH', 'PUT', 'DELETE'),
        body,
        fc.constantFrom('fx_bands', 'fx_songs', 'rpc/fx_add', 'rpc/fx_echo'),
        async (qs, method, payload, path) => {
          const res = await h.rest(`/${path}?${new URLSearchParams(qs).toString()}`, {
            method,
            headers: { ...service, 'Content-Type': 'application/json' },
            body: payload,
          });
          await res.text();
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});
