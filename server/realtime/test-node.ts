/**
 * One Realtime node in its own process, for server/realtime/nodes.test.ts: serves
 * TEST_NODE_DATABASE_URL's database (already migrated) on a free loopback port and prints
 * `{"url": ...}` once it listens. The test kills it with SIGKILL.
 */
import { Hono } from 'hono';
import { serveHttp } from '../http/serve';
import { openPostgres } from '../db/postgres';
import { clusterOptionsFromEnv, startRealtime } from './index';

const db = await openPostgres(process.env.TEST_NODE_DATABASE_URL ?? '');
const realtime = await startRealtime({
  db,
  jwtSecret: process.env.JWT_SECRET ?? '',
  cluster: clusterOptionsFromEnv(process.env),
});
const app = new Hono();
app.route('/realtime/v1', realtime.http);
const { server, port } = await serveHttp(app.fetch, { port: 0, hostname: '127.0.0.1' });
realtime.attach(server);
console.log(JSON.stringify({ url: `http://127.0.0.1:${port}`, nodeId: realtime.cluster.nodeId }));
