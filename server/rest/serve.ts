import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { Database } from '../db/database';
import type { Keys } from '../keys/keys';
import { createRestApp, type RestApp } from './app';
import { withFastPath } from './node';

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
export async function startRestServer(opts: {
  db: Database;
  keys: Pick<Keys, 'jwtSecret'>;
  port?: number;
  hostname?: string;
  maxRows?: number | null;
}): Promise<RunningRestServer> {
  const rest = createRestApp({ db: opts.db, keys: opts.keys, maxRows: opts.maxRows });
  await rest.ready;
  const app = new Hono();
  app.route('/rest/v1', rest);
  const fast = rest.nodeListener('/rest/v1');
  const hostname = opts.hostname ?? '127.0.0.1';
  return new Promise((resolve) => {
    const server: ServerType = serve(
      {
        fetch: app.fetch,
        port: opts.port ?? 0,
        hostname,
        // Plain reads straight from node:http, the rest through Hono (as `npm start`: server/http/serve.ts).
        createServer: withFastPath(() => fast),
      },
      (info) => {
        // As server/http/serve.ts: idle keep-alive connections live 65 s, so a client reusing
        // one is never answered ECONNRESET by Node's 5 s close (fuzz.test.ts's first write after
        // its reads, on a loaded machine).
        (server as { keepAliveTimeout?: number }).keepAliveTimeout = 65_000;
        resolve({
          url: `http://${hostname}:${info.port}`,
          port: info.port,
          rest,
          close: () => new Promise<void>((done) => server.close(() => done())),
        });
      },
    );
  });
}
