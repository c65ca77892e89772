/**
 * Serves a fetch handler on a real port the way `npm start` does (server/main.ts); the attack
 * suite (tests/security) starts its target through the same function, so what it finds and
 * what fixes it apply to `npm start` too.
 */
import { serve, type ServerType } from '@hono/node-server';

export interface RunningHttpServer {
  server: ServerType;
  /** `http://<hostname>:<port>` */
  url: string;
  port: number;
  close: () => Promise<void>;
}

/** A fetch handler; `env` carries Node's request (`incoming`), which some modules read. */
export type FetchHandler = Parameters<typeof serve>[0]['fetch'];

export function serveHttp(
  fetch: FetchHandler,
  { port, hostname }: { port: number; hostname: string },
): Promise<RunningHttpServer> {
  return new Promise((resolve) => {
    const server: ServerType = serve({ fetch, port, hostname }, (info) =>
      resolve({
        server,
        port: info.port,
        url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Keep-alive and half-open connections (an attack's) must not hold the close.
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      }),
    );
  });
}
