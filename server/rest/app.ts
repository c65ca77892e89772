import type { IncomingMessage } from 'node:http';
import { Hono, type Context } from 'hono';
import type { Database } from '../db/database';
import { createJwtVerifier, verificationSecrets, type Keys } from '../keys/keys';
import { authenticate, type RequestAuth } from './auth';
import { readBoundedText, readIncomingText } from './body';
import { CORS_HEADERS, type HandlerContext, type RestRequest, type RestResponse } from './context';
import { createNodeFastPath, headersOf, type NodeFastPath } from './node';
import { RestError, toRestError } from './errors';
import { negotiate, parsePrefer } from './headers';
import { handleRead } from './handle-read';
import { handleRpc } from './handle-rpc';
import { handleDelete, handleInsert, handlePut, handleUpdate } from './handle-write';
import { loadSchemaCache, type SchemaCache } from './schema-cache';
import { allowsTxOverride, endsInRollback, type TxEnd } from './tx-end';
import { requestSchema, searchPathFor } from './schemas';
import { planRequest } from './explain';

export interface RestAppOptions {
  db: Database;
  keys: Pick<Keys, 'jwtSecret' | 'previousJwtSecret'>;
  /** Role for requests without a JWT or whose JWT has no role claim (PostgREST's db-anon-role). */
  anonRole?: string;
  /** Roles a JWT may ask for; others get 403 like a role the authenticator is not a member of. */
  allowedRoles?: string[];
  /** PostgREST's db-max-rows: most rows one read returns. Default 1000, hosted Supabase's default; null = no cap. */
  maxRows?: number | null;
  /** PostgREST's db-tx-end (server/rest/tx-end.ts): default `commit`, as Soundloft runs. */
  txEnd?: TxEnd;
  /** PostgREST's db-aggregates-enabled: `select=amount.sum()` etc. (aggregates.ts). Default off: 400 PGRST123. */
  aggregatesEnabled?: boolean;
  /** PostgREST's db-schemas: exposed schemas, the first the default (docs/rest-api.md#several-schemas). Default `['public']`. */
  dbSchemas?: string[];
  /** PostgREST's db-plan-enabled: `Accept: application/vnd.pgrst.plan` (`.explain()`). Default off. */
  planEnabled?: boolean;
}

export type RestApp = Hono & {
  /** Re-reads tables, columns, relationships and functions (after migrations, like NOTIFY pgrst). */
  reloadSchema: () => Promise<void>;
  /** Resolves once the first schema load finished. */
  ready: Promise<void>;
  /**
   * A node:http listener for the app mounted at `prefix` ('/rest/v1'): answers plain REST paths
   * itself and returns true, or returns false for the caller's Hono listener to answer.
   */
  nodeListener: (prefix: string) => NodeFastPath;
};

/** Codes that may mean "the schema changed since we looked": reload once and retry. */
const STALE_CODES = new Set(['PGRST200', 'PGRST202', 'PGRST204', 'PGRST205', '42703']);
const RELOAD_INTERVAL_MS = 1000;

type Handler = (ctx: HandlerContext, name: string) => Promise<RestResponse>;

/** The request's headers: from Node's raw list when served by @hono/node-server. */
function requestHeaders(c: Context): Record<string, string> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming) return headersOf(incoming.rawHeaders);
  const headers: Record<string, string> = {};
  c.req.raw.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return headers;
}

const asResponse = (r: RestResponse) =>
  new Response(r.body, { status: r.status, headers: r.headers });

/** PostgREST's `Content-Profile` response header when the schema was negotiated. */
function withProfile(
  response: RestResponse,
  target: { name: string; negotiated: boolean },
): RestResponse {
  if (target.negotiated) response.headers['Content-Profile'] = target.name;
  return response;
}

/** PostgREST-compatible `/rest/v1`, to be mounted with `app.route('/rest/v1', createRestApp(...))`. */
export function createRestApp(options: RestAppOptions): RestApp {
  const { db } = options;
  const anonRole = options.anonRole ?? 'anon';
  const allowedRoles = new Set(options.allowedRoles ?? ['anon', 'authenticated', 'service_role']);
  const verify = createJwtVerifier(verificationSecrets(options.keys));
  const maxRows = options.maxRows === null ? undefined : (options.maxRows ?? 1000);
  const txEnd = options.txEnd ?? 'commit';
  const dbSchemas = options.dbSchemas?.length ? options.dbSchemas : ['public'];
  const planEnabled = options.planEnabled ?? false;
  /** One schema cache per exposed schema, all reloaded together. */
  let caches: Map<string, SchemaCache> | undefined;
  let loadedAt = 0;
  let loading: Promise<void> | undefined;
  const reloadSchema = () => {
    loading ??= (async () => {
      const loaded = new Map<string, SchemaCache>();
      for (const name of dbSchemas) loaded.set(name, await loadSchemaCache(db, name));
      return loaded;
    })()
      .then((s) => {
        caches = s;
        loadedAt = Date.now();
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };
  const ready = reloadSchema();
  ready.catch((err: unknown) => console.error('[rest] schema cache load failed', err));

  const preflight = (headers: Record<string, string>): RestResponse => ({
    status: 200,
    body: null,
    headers: {
      ...CORS_HEADERS,
      'Access-Control-Allow-Methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD',
      'Access-Control-Allow-Headers':
        headers['access-control-request-headers'] ??
        'Authorization, Content-Type, Accept, Accept-Profile, Content-Profile, Prefer, Range, apikey, x-client-info',
      'Access-Control-Max-Age': '86400',
    },
  });

  /** Answers one request for `handler` on `name` (`path`: what request.path publishes). */
  const serve = async (
    req: RestRequest,
    handler: Handler,
    name: string,
    path: string,
  ): Promise<RestResponse> => {
    let auth: RequestAuth | undefined;
    const { method, headers } = req;
    try {
      const target = requestSchema(method, headers, dbSchemas);
      auth = await authenticate(headers.authorization, headers.apikey, {
        verify,
        anonRole,
        allowedRoles,
      });
      if (!caches) {
        try {
          await (loading ?? reloadSchema());
        } catch (err) {
          console.error('[rest] schema cache load failed', err);
          throw new RestError(
            503,
            'PGRST002',
            'Could not query the database for the schema cache. Retrying.',
          );
        }
      }
      const plan = planEnabled ? planRequest(headers.accept) : undefined;
      if (plan && method !== 'GET' && method !== 'HEAD' && !path.startsWith('/rpc/'))
        throw new RestError(
          406,
          'PGRST107',
          'Execution plans of writes are not available here (docs/rest-api.md#execution-plans)',
        );
      const media = negotiate(plan ? plan.forMedia : headers.accept);
      const makeCtx = (): HandlerContext => {
        const prefs = parsePrefer(headers.prefer, allowsTxOverride(txEnd));
        const rollback = endsInRollback(txEnd, prefs);
        return {
          db,
          schema: caches?.get(target.name) as SchemaCache,
          request: {
            auth: auth as RequestAuth,
            method,
            path,
            headers,
            searchPath: searchPathFor(target.name),
            rollback,
          },
          auth: auth as RequestAuth,
          url: new URL(req.url),
          method,
          headers,
          prefs,
          media,
          readBody: req.readBody,
          maxRows,
          plan,
          aggregatesEnabled: options.aggregatesEnabled === true,
        };
      };
      try {
        return withProfile(await handler(makeCtx(), name), target);
      } catch (err) {
        if (
          !(err instanceof RestError) ||
          !STALE_CODES.has(err.code) ||
          Date.now() - loadedAt < RELOAD_INTERVAL_MS
        )
          throw err;
        await reloadSchema();
        return withProfile(await handler(makeCtx(), name), target);
      }
    } catch (err) {
      const e = toRestError(err, auth?.authenticated ?? false);
      return {
        status: e.status,
        body: method === 'HEAD' ? null : JSON.stringify(e.body()),
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          ...CORS_HEADERS,
          ...e.headers,
        },
      };
    }
  };

  const tableHandlers: Record<string, Handler> = {
    GET: handleRead,
    HEAD: handleRead,
    POST: handleInsert,
    PATCH: handleUpdate,
    PUT: handlePut,
    DELETE: handleDelete,
  };
  const unsupported: Handler = (ctx) =>
    Promise.reject(new RestError(405, 'PGRST117', `Unsupported HTTP method: ${ctx.method}`));
  const serveTable = (req: RestRequest, table: string) =>
    serve(
      req,
      Object.hasOwn(tableHandlers, req.method)
        ? (tableHandlers[req.method] as Handler)
        : unsupported,
      table,
      `/${table}`,
    );
  const serveRpc = (req: RestRequest, fn: string) => serve(req, handleRpc, fn, `/rpc/${fn}`);

  const fromHono = (c: Context): RestRequest => {
    let bodyText: Promise<string> | undefined;
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    return {
      method: c.req.method,
      url: c.req.url,
      headers: requestHeaders(c),
      readBody: () =>
        (bodyText ??= incoming ? readIncomingText(incoming) : readBoundedText(c.req.raw)),
    };
  };

  const app = new Hono();
  app.options('*', (c) => asResponse(preflight(requestHeaders(c))));
  app.all('/rpc/:fn', async (c) => asResponse(await serveRpc(fromHono(c), c.req.param('fn'))));
  app.all('/:table', async (c) => asResponse(await serveTable(fromHono(c), c.req.param('table'))));
  // PostgREST serves an OpenAPI document at the root; this server does not (docs/rest-api.md).
  app.all('*', async (c) =>
    asResponse(
      await serve(
        fromHono(c),
        () =>
          Promise.reject(new RestError(404, 'PGRST125', 'Invalid path specified in request URL')),
        '',
        c.req.path,
      ),
    ),
  );

  /**
   * The fast path (server/rest/node.ts): answers `${prefix}/<table>` and `${prefix}/rpc/<fn>`
   * straight from node:http when the path is plain (letters, digits, `_`: nothing Hono would
   * decode or normalise), and leaves everything else to the Hono routes above.
   */
  const nodeListener = (prefix: string) =>
    createNodeFastPath(prefix, { preflight, serveTable, serveRpc });

  return Object.assign(app, { reloadSchema, ready, nodeListener });
}
