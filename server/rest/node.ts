/**
 * The REST fast path: `/rest/v1` answered straight from node:http, without the Fetch `Request` /
 * `Response` the Hono adapter builds and without Hono's routing (profiled: docs/rest-api.md#speed).
 * Only requests whose meaning cannot differ from the Hono route's are taken: GET, HEAD and
 * OPTIONS (no body to read) on `<prefix>/<name>` or `<prefix>/rpc/<name>` where the name is plain
 * (letters, digits, `_`: nothing Hono would percent-decode or normalise). Everything else (writes,
 * odd paths) returns false and goes to the Hono app, which answers it the same way it always has.
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { RestRequest, RestResponse } from './context';

/** Answers `req` and returns true, or returns false without touching `req` or `res`. */
export type NodeFastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface RestCore {
  preflight: (headers: Record<string, string>) => RestResponse;
  serveTable: (req: RestRequest, table: string) => Promise<RestResponse>;
  serveRpc: (req: RestRequest, fn: string) => Promise<RestResponse>;
}

/**
 * Headers from Node's raw list, joined as Fetch's `Headers.get` joins them (`, `; `; ` for
 * cookies), so `authorization` sent twice is refused here as it is through Hono's Headers
 * (Node's own `incoming.headers` keeps the first). Also what PostgREST publishes in
 * request.headers. One pass over the raw list, no Headers object (profiled: docs/rest-api.md).
 */
export function headersOf(rawHeaders: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const key = (rawHeaders[i] as string).toLowerCase();
    if (key.startsWith(':') || key === '__proto__') continue;
    const value = rawHeaders[i + 1] as string;
    const had = headers[key];
    headers[key] = had === undefined ? value : had + (key === 'cookie' ? '; ' : ', ') + value;
  }
  return headers;
}

const noBody = () => Promise.resolve('');

/** Status, headers and body in one `writeHead` + `end`: one write on the socket. */
export function writeRestResponse(res: ServerResponse, r: RestResponse): void {
  if (r.body === null) {
    res.writeHead(r.status, r.headers);
    res.end();
    return;
  }
  res.writeHead(r.status, { ...r.headers, 'Content-Length': Buffer.byteLength(r.body) });
  res.end(r.body);
}

function fail(res: ServerResponse, err: unknown) {
  console.error('[rest] unexpected error', err);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { 'Content-Type': 'text/plain' });
  res.end('Internal server error');
}

export function createNodeFastPath(prefix: string, core: RestCore): NodeFastPath {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const route = new RegExp(`^${escaped}/(?:(rpc)/)?([A-Za-z0-9_]+)(?:\\?|$)`);
  return (req, res) => {
    const { method, url } = req;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') return false;
    const m = url === undefined ? null : route.exec(url);
    if (!m) return false;
    const name = m[2] as string;
    const headers = headersOf(req.rawHeaders);
    if (method === 'OPTIONS') {
      writeRestResponse(res, core.preflight(headers));
      return true;
    }
    const request: RestRequest = {
      method,
      url: `http://localhost${url}`,
      headers,
      readBody: noBody,
    };
    (m[1] ? core.serveRpc(request, name) : core.serveTable(request, name)).then(
      (r) => writeRestResponse(res, r),
      (err: unknown) => fail(res, err),
    );
    return true;
  };
}

/**
 * A `createServer` for @hono/node-server's `serve()` whose requests go to `fastPath()` first and
 * to the adapter's listener when it leaves them (server/http/serve.ts, server/rest/serve.ts).
 */
export function withFastPath(fastPath: () => NodeFastPath | undefined): typeof createServer {
  const create = (options: ServerOptions, listener: RequestListener) =>
    createServer(options, (req, res) => {
      if (!fastPath()?.(req, res)) listener(req, res);
    });
  return create as typeof createServer;
}
