import { Hono } from 'hono';
import type { Database } from '../db/database';
import type { Keys } from '../keys/keys';
import { createRestApp, type RestApp, type RestAppOptions } from './app';
import { serveHttp } from '../http/serve';
import type { NodeFastPath } from './node';

export interface RunningRestServer {
  url: string;
  port: number;
  rest: RestApp;
  close: () => Promise<void>;
}

/**
 * Serves `/rest/v1` alone on `port` (0 = any free port): for integration tests and benchmarks.
 * The schema cache is loaded before this resolves.
 */
export async function startRestServer(
  opts: Omit<RestAppOptions, 'db' | 'keys'> & {
    db: Database;
    keys: Pick<Keys, 'jwtSecret'>;
    port?: number;
    hostname?: string;
    /** Sees every request first (server/ops/http.ts: request ids, metrics, logs). */
    front?: NodeFastPath;
  },
): Promise<RunningRestServer> {
  const { port: wanted, hostname, front, ...options } = opts;
  const rest = createRestApp(options);
  await rest.ready;
  const app = new Hono();
  app.route('/rest/v1', rest);
  // Plain reads straight from node:http, the rest through Hono, kept-alive connections and all,
  // exactly as `npm start` serves them (server/http/serve.ts).
  const { url, port, close } = await serveHttp(app.fetch, {
    port: wanted ?? 0,
    hostname: hostname ?? '127.0.0.1',
    fastPath: rest.nodeListener('/rest/v1'),
    front,
  });
  return { url, port, rest, close };
}
