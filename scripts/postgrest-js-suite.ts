/**
 * Runs postgrest-js's own test suite against our `/rest/v1` (issue 39, docs/rest-api.md
 * § postgrest-js's suite): a development tool, not part of `npm test` (the suite is not in this
 * repository and needs a checkout of supabase/postgrest-js with its dev dependencies).
 *
 *   POSTGREST_JS_DIR=/path/to/postgrest-js [TEST_DATABASE_URL=postgresql://…] \
 *     [SUITE_PORT=3000] npx tsx scripts/postgrest-js-suite.ts [jest arguments…]
 *
 * With SUITE_SERVE_ONLY=1 it loads and serves (proxies included) until stopped, without jest.
 *
 * What it does, as the suite's docker-compose does for PostgREST 12 (port 3000) and 13 (3001):
 * a fresh migrated database (PGlite, or a unique database on TEST_DATABASE_URL), the suite's
 * `test/db/*.sql` loaded (PostGIS where the server has it; PGlite has none, so the `shops`
 * table is made without its geometry column and the GeoJSON tests fail), its tables, sequences and
 * functions granted to `anon` (the suite's anon role is `postgres`), our REST server with
 * PostgREST's settings of that compose file (db-schemas public,personal, aggregates on,
 * db-plan-enabled, db-tx-end commit-allow-override), and on SUITE_PORT and SUITE_PORT+1 a proxy that adds the
 * anon key to each request and forwards it to `/rest/v1`. The suite's test folder is copied to
 * `test-p<SUITE_PORT>` with its URLs pointed at those ports (so several runs can share a
 * checkout), then jest runs it and the pass count is printed.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { openTestDatabase } from '../server/db/test-database';
import { loadKeys } from '../server/keys/keys';
import { startRestServer } from '../server/rest/serve';

const dir = process.env.POSTGREST_JS_DIR ?? '';
if (!dir || !existsSync(join(dir, 'test', 'db', '00-schema.sql'))) {
  console.error('postgrest-js-suite: set POSTGREST_JS_DIR to a checkout of supabase/postgrest-js');
  process.exit(2);
}
const port = Number(process.env.SUITE_PORT ?? 3000);

/** The suite's schema, made loadable where PostGIS is missing. */
function suiteSql(withPostgis: boolean): string {
  let schema = readFileSync(join(dir, 'test', 'db', '00-schema.sql'), 'utf8');
  if (!withPostgis) {
    schema = schema
      .replace(/create extension postgis schema extensions;/i, '-- (no PostGIS here)')
      .replace(/, shop_geom extensions\.geometry\(POINT, 4326\)\n/i, '\n');
  }
  // PGlite has no logical replication; our migrations already made the `extensions` schema.
  schema = schema
    .replace(/CREATE PUBLICATION supabase_realtime FOR ALL TABLES;/i, '')
    .replace(/create schema extensions;/i, 'create schema if not exists extensions;');
  return schema;
}

async function main() {
  const test = await openTestDatabase();
  const before = await test.db.query<{ name: string }>(
    `select c.oid::regclass::text as name from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'v', 'm', 'S', 'p')`,
  );
  const known = new Set(before.rows.map((r) => r.name));
  const postgis =
    test.db.kind !== 'pglite' &&
    !!(
      await test.db.query<{ n: number }>(
        `select count(*)::int as n from pg_available_extensions where name = 'postgis'`,
      )
    ).rows[0]?.n;
  await test.db.exec(suiteSql(postgis));
  let data = readFileSync(join(dir, 'test', 'db', '01-dummy-data.sql'), 'utf8');
  if (!postgis) {
    data = data.replace(
      /INSERT INTO shops\(id, address, shop_geom\)\s*VALUES\s*\(1, '([^']*)', '[^']*'\);/i,
      "insert into shops (id, address) values (1, '$1');",
    );
  }
  await test.db.exec(data);
  // The suite's anon role is postgres: grant what it made (and only that) to anon.
  const made = await test.db.query<{ name: string; kind: string }>(
    `select c.oid::regclass::text as name, c.relkind::text as kind from pg_class c
      where c.relnamespace in ('public'::regnamespace, 'personal'::regnamespace)
        and c.relkind in ('r', 'v', 'm', 'S', 'p')`,
  );
  const grants = [
    'grant usage on schema personal to anon, authenticated',
    'grant usage on schema extensions to anon, authenticated',
    'grant execute on all functions in schema personal to anon, authenticated',
    ...made.rows
      .filter((r) => !known.has(r.name))
      .map((r) =>
        r.kind === 'S'
          ? `grant usage, select, update on sequence ${r.name} to anon, authenticated`
          : `grant select, insert, update, delete on ${r.name} to anon, authenticated`,
      ),
  ];
  await test.db.exec(grants.join(';\n'));
  const keys = loadKeys(
    { JWT_SECRET: 'postgrest-js-suite-secret-at-least-32-characters' },
    () => {},
  );
  // PostgREST's settings of the suite's docker-compose.yml; options the server does not know
  // (yet) are ignored.
  const settings = {
    dbSchemas: ['public', 'personal'],
    aggregatesEnabled: true,
    planEnabled: true,
    txEnd: 'commit-allow-override',
    // The compose file sets no db-max-rows (it matters to count=estimated).
    maxRows: null,
  };
  const server = await startRestServer({
    db: test.db,
    keys,
    ...(settings as Record<string, unknown>),
  } as Parameters<typeof startRestServer>[0]);
  const target = new URL(server.url);
  const proxies: Server[] = [];
  for (const p of [port, port + 1]) {
    const proxy = createServer((req, res) => {
      const headers = { ...req.headers, apikey: keys.anonKey, host: target.host };
      const forward = httpRequest(
        {
          hostname: target.hostname,
          port: target.port,
          method: req.method,
          path: `/rest/v1${req.url ?? '/'}`,
          headers,
        },
        (upstream) => {
          res.writeHead(upstream.statusCode ?? 502, upstream.headers);
          upstream.pipe(res);
        },
      );
      forward.on('error', (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      req.pipe(forward);
    });
    proxy.keepAliveTimeout = 0;
    await new Promise<void>((resolve) => proxy.listen(p, '127.0.0.1', resolve));
    proxies.push(proxy);
  }
  // The suite's tests, pointed at these ports.
  const copy = join(dir, `test-p${port}`);
  rmSync(copy, { recursive: true, force: true });
  cpSync(join(dir, 'test'), copy, { recursive: true });
  for (const file of readdirSync(copy)) {
    if (!file.endsWith('.ts')) continue;
    const path = join(copy, file);
    writeFileSync(
      path,
      readFileSync(path, 'utf8')
        .replaceAll('localhost:3001', `127.0.0.1:${port + 1}`)
        .replaceAll('localhost:3000', `127.0.0.1:${port}`),
    );
  }
  console.log(
    `postgrest-js-suite: ${test.db.kind}${postgis ? ' with PostGIS' : ' (no PostGIS)'}; ` +
      `REST at ${server.url}/rest/v1; PostgREST 12 → :${port}, 13 → :${port + 1}`,
  );
  if (process.env.SUITE_SERVE_ONLY) {
    console.log('postgrest-js-suite: serving until stopped (SUITE_SERVE_ONLY)');
    return;
  }
  // Not spawnSync: the server and the proxies answer from this process's event loop.
  const status = await new Promise<number | null>((resolve) => {
    spawn(
      'npx',
      ['jest', '--runInBand', `--roots=<rootDir>/test-p${port}`, ...process.argv.slice(2)],
      { cwd: dir, stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } },
    ).on('exit', resolve);
  });
  for (const proxy of proxies) {
    proxy.close();
    proxy.closeAllConnections();
  }
  await server.close();
  await test.close();
  rmSync(copy, { recursive: true, force: true });
  process.exit(status ?? 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
