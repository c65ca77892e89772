/**
 * The backend of `npm run bench -- sync`, in its own Node process (`node --import tsx`), so the
 * server never shares an event loop with the client it is measured against: the real REST server
 * (server/rest) on a migrated database (in-memory PGlite, or PostgreSQL when TEST_DATABASE_URL is
 * set), with SYNC_BENCH_TRACKS tracks seeded in one statement. Prints one JSON line
 * ({ url, anonKey, serviceKey, control, tracks }); the control server (CORS open, it also serves
 * the blank page the Chromium run uses as its origin) mints user tokens (GET /token?sub=) and
 * creates users (POST /user).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUser } from '../server/db/test-factories';
import { openTestDatabase } from '../server/db/test-database';
import { loadKeys, userToken } from '../server/keys/keys';
import { startRestServer } from '../server/rest/serve';

const TRACKS = Number(process.env.SYNC_BENCH_TRACKS ?? 5000);

const test = await openTestDatabase();
const keys = loadKeys({ JWT_SECRET: 'sync-bench-secret-that-is-at-least-32-characters' }, () => {});
const rest = await startRestServer({ db: test.db, keys });
const uploader = await createUser(test.db, { name: 'Bench Uploader' });
// Seeded as the server's own connection with triggers off (no upload limit for the uploader), and
// not brand new: the pull's 60 s safety overlap must not re-read the whole catalogue.
const tracks = await test.db.transaction(async (tx) => {
  await tx.query(`set local session_replication_role = replica`);
  const { rows } = await tx.query<{ id: string }>(
    `insert into public.tracks (title, artist, album, genre, duration, audio_url, uploaded_by,
                                created_at, updated_at, status)
     select 'Track ' || i, 'Artist ' || (i % 50), 'Album ' || (i % 400), 'Electronic',
            180 + i % 120, $1 || '/1700000000000_track.mp3', $1::uuid,
            now() - interval '2 days', now() - interval '2 days', 'ready'
       from generate_series(1, $2::int) as i
     order by i
     returning id`,
    [uploader.id, TRACKS],
  );
  return rows.map((r) => r.id);
});

const reply = (res: ServerResponse, body: unknown, type = 'application/json') => {
  res.writeHead(200, { 'content-type': type, 'access-control-allow-origin': '*' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/token') {
    return reply(res, {
      token: userToken(
        url.searchParams.get('sub') ?? '',
        keys.jwtSecret,
        Number(url.searchParams.get('ttl') ?? 3600),
      ),
    });
  }
  if (url.pathname === '/user' && req.method === 'POST') {
    createUser(test.db).then(
      (user) => reply(res, { id: user.id }),
      (error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      },
    );
    return undefined;
  }
  if (url.pathname === '/') {
    return reply(res, '<!doctype html><title>sync bench</title>', 'text/html');
  }
  res.writeHead(404);
  res.end();
  return undefined;
});
control.listen(0, '127.0.0.1', () => {
  const { port } = control.address() as AddressInfo;
  process.stdout.write(
    `${JSON.stringify({
      url: rest.url,
      anonKey: keys.anonKey,
      serviceKey: keys.serviceRoleKey,
      control: `http://127.0.0.1:${port}`,
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
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
process.stdin.on('end', () => void shutdown());
process.stdin.resume();
