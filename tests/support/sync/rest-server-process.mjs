/* global process, URL */
/**
 * A real embedded REST server for the sync integration tests, in its own Node process (the
 * jsdom test project cannot load server/ itself). Run with `node --import tsx`. Prints one JSON
 * line: { url, anonKey, serviceKey, control, uploader, tracks }. The control server mints user
 * tokens (GET /token?sub=&ttl=) and creates users (POST /user) and admins (POST /admin).
 *
 * SYNC_TEST_DATA_DIR: PGlite persisted in that directory instead of memory; a later start on the
 * same directory (after a kill -9: tests/support/faults) reuses its database and fixtures.
 * SYNC_TEST_REST_PORT / SYNC_TEST_CONTROL_PORT: fixed ports (a restart keeps its addresses).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { migrate } from '../../../server/db/migrate.ts';
import { openPglite } from '../../../server/db/pglite.ts';
import { createAdmin, createTrack, createUser } from '../../../server/db/test-factories.ts';
import { openTestDatabase } from '../../../server/db/test-database.ts';
import { loadKeys, userToken } from '../../../server/keys/keys.ts';
import { startRestServer } from '../../../server/rest/serve.ts';

const TRACKS = Number(process.env.SYNC_TEST_TRACKS ?? 8);
const DATA_DIR = process.env.SYNC_TEST_DATA_DIR;
const port = (name) => Number(process.env[name] ?? 0);

async function openDatabase() {
  if (!DATA_DIR) return openTestDatabase();
  const db = await openPglite(join(DATA_DIR, 'pgdata'));
  await migrate(db);
  return { db, close: () => db.close() };
}

async function fixtures(db) {
  const file = DATA_DIR && join(DATA_DIR, 'fixtures.json');
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const uploader = await createUser(db, { name: 'Uploader' });
  const tracks = [];
  for (let i = 0; i < TRACKS; i++) {
    tracks.push((await createTrack(db, uploader, { title: `Track ${i}` })).id);
  }
  if (file) writeFileSync(file, JSON.stringify({ uploader, tracks }));
  return { uploader, tracks };
}

const test = await openDatabase();
const keys = loadKeys({ JWT_SECRET: 'sync-test-secret-that-is-at-least-32-characters' }, () => {});
const rest = await startRestServer({ db: test.db, keys, port: port('SYNC_TEST_REST_PORT') });
const { uploader, tracks } = await fixtures(test.db);

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const reply = (body) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === '/token') {
    return reply({
      token: userToken(
        url.searchParams.get('sub') ?? '',
        keys.jwtSecret,
        Number(url.searchParams.get('ttl') ?? 3600),
      ),
    });
  }
  if ((url.pathname === '/user' || url.pathname === '/admin') && req.method === 'POST') {
    (url.pathname === '/admin' ? createAdmin(test.db) : createUser(test.db)).then(
      (user) => reply({ id: user.id }),
      (error) => {
        res.writeHead(500);
        res.end(String(error));
      },
    );
    return undefined;
  }
  res.writeHead(404);
  res.end();
  return undefined;
});
control.listen(port('SYNC_TEST_CONTROL_PORT'), '127.0.0.1', () => {
  const { port } = control.address();
  process.stdout.write(
    `${JSON.stringify({
      url: rest.url,
      anonKey: keys.anonKey,
      serviceKey: keys.serviceRoleKey,
      control: `http://127.0.0.1:${port}`,
      uploader: uploader.id,
      tracks,
    })}\n`,
  );
});

const shutdown = async () => {
  control.close();
  await rest.close();
  await test.close();
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.stdin.on('end', shutdown);
process.stdin.resume();
