/* global process, URL */
/**
 * A real embedded REST server for the sync integration tests, in its own Node process (the
 * jsdom test project cannot load server/ itself). Run with `node --import tsx`. Prints one JSON
 * line: { url, anonKey, serviceKey, control, uploader, tracks }. The control server mints user
 * tokens (GET /token?sub=&ttl=) and creates users (POST /user) and admins (POST /admin).
 */
import { createServer } from 'node:http';
import { createAdmin, createTrack, createUser } from '../../../server/db/test-factories.ts';
import { openTestDatabase } from '../../../server/db/test-database.ts';
import { loadKeys, userToken } from '../../../server/keys/keys.ts';
import { startRestServer } from '../../../server/rest/serve.ts';

const TRACKS = Number(process.env.SYNC_TEST_TRACKS ?? 8);

const test = await openTestDatabase();
const keys = loadKeys({ JWT_SECRET: 'sync-test-secret-that-is-at-least-32-characters' }, () => {});
const rest = await startRestServer({ db: test.db, keys });
const uploader = await createUser(test.db, { name: 'Uploader' });
const tracks = [];
for (let i = 0; i < TRACKS; i++) {
  tracks.push((await createTrack(test.db, uploader, { title: `Track ${i}` })).id);
}

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
control.listen(0, '127.0.0.1', () => {
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
