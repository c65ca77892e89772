/**
 * Serves a fetch handler on a real port the way `npm start` does (server/main.ts); the attack
 * suite (tests/security) starts its target through the same function, so what it finds and
 * what fixes it apply to `npm start` too.
 */
import { serve, type ServerType } from '@hono/node-server';
import { withFastPath, type NodeFastPath } from '../rest/node';

export interface RunningHttpServer {
  server: ServerType;
  /** `http://<hostname>:<port>` */
  url: string;
  port: number;
  close: () => Promise<void>;
  /** Sets the fast path that sees every request before the fetch handler (or removes it). */
  useFastPath: (fastPath: NodeFastPath | undefined) => void;
}

/** A fetch handler; `env` carries Node's request (`incoming`), which some modules read. */
export type FetchHandler = Parameters<typeof serve>[0]['fetch'];

/**
 * `fastPath` (server/rest/node.ts, Backend.fastPath) sees each request first and answers the
 * plain `/rest/v1` reads itself; whatever it leaves goes to `fetch` through @hono/node-server.
 */
export function serveHttp(
  fetch: FetchHandler,
  {
    port,
    hostname,
    fastPath,
    front,
  }: {
    port: number;
    hostname: string;
    fastPath?: NodeFastPath;
    /** Sees every request before the fast path (server/ops/http.ts: request ids, metrics, logs). */
    front?: NodeFastPath;
  },
): Promise<RunningHttpServer> {
  let fast = fastPath;
  const first: NodeFastPath | undefined =
    front && ((req, res) => front(req, res) || (fast?.(req, res) ?? false));
  return new Promise((resolve) => {
    const server: ServerType = serve(
      {
        fetch,
        port,
        hostname,
        createServer: withFastPath(() => first ?? fast),
      },
      (info) => {
        // Node closes an idle keep-alive connection after 5 s, and a client that reuses it at
        // that moment reads ECONNRESET (seen in e2e: Playwright's request context after a 5 s
        // pause). Idle connections live 65 s, past the usual clients' own idle timeouts (Node's
        // agent 4 s, undici 4 s, browsers 60 s+), the way load balancers set it.
        (server as { keepAliveTimeout?: number }).keepAliveTimeout = 65_000;
        resolve({
          useFastPath: (f) => {
            fast = f;
          },
          server,
          port: info.port,
          url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${info.port}`,
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done());
              // Keep-alive and half-open connections (an attack's) must not hold the close.
              (server as { closeAllConnections?: () => void }).closeAllConnections?.();
            }),
        });
      },
    );
  });
}
