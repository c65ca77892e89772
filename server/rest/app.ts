import type { IncomingMessage } from 'node:http';
import { Hono, type Context } from 'hono';
import type { Database } from '../db/database';
import { createJwtVerifier, type Keys } from '../keys/keys';
import { authenticate, type RequestAuth } from './auth';
import { readBoundedText } from './body';
import { CORS_HEADERS, hasCorsHeaders, type HandlerContext } from './context';
import { RestError, toRestError } from './errors';
import { negotiate, parsePrefer } from './headers';
import { handleRead } from './handle-read';
import { handleRpc } from './handle-rpc';
import { handleDelete, handleInsert, handlePut, handleUpdate } from './handle-write';
import { loadSchemaCache, type SchemaCache } from './schema-cache';

export interface RestAppOptions {
  db: Database;
  keys: Pick<Keys, 'jwtSecret'>;
  /** Role for requests without a JWT or whose JWT has no role claim (PostgREST's db-anon-role). */
  anonRole?: string;
  /** Roles a JWT may ask for; others get 403 like a role the authenticator is not a member of. */
  allowedRoles?: string[];
  /** PostgREST's db-max-rows: most rows one read returns. Default 1000, hosted Supabase's default; null = no cap. */
  maxRows?: number | null;
}

export type RestApp = Hono & {
  /** Re-reads tables, columns, relationships and functions (after migrations, like NOTIFY pgrst). */
  reloadSchema: () => Promise<void>;
  /** Resolves once the first schema load finished. */
  ready: Promise<void>;
};

/** Codes that may mean "the schema changed since we looked": reload once and retry. */
const STALE_CODES = new Set(['PGRST200', 'PGRST202', 'PGRST204', 'PGRST205', '42703']);
const RELOAD_INTERVAL_MS = 1000;

type Handler = (ctx: HandlerContext, name: string) => Promise<Response>;

/**
 * The request's headers as PostgREST publishes them in request.headers (lower-case names). From
 * Node's parsed headers when served by @hono/node-server (the ones `c.req.header()` reads too):
 * iterating `c.req.raw.headers` would build a whole Fetch Headers object per request (profiled:
 * docs/rest-api.md).
 */
function requestHeaders(c: Context): Record<string, string> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const headers: Record<string, string> = {};
  if (!incoming) {
    c.req.raw.headers.forEach((value, key) => {
      headers[key] = value;
    });
    return headers;
  }
  for (const [key, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** PostgREST-compatible `/rest/v1`, to be mounted with `app.route('/rest/v1', createRestApp(...))`. */
export function createRestApp(options: RestAppOptions): RestApp {
  const { db } = options;
  const anonRole = options.anonRole ?? 'anon';
  const allowedRoles = new Set(options.allowedRoles ?? ['anon', 'authenticated', 'service_role']);
  const verify = createJwtVerifier(options.keys.jwtSecret);
  const maxRows = options.maxRows === null ? undefined : (options.maxRows ?? 1000);
  let schema: SchemaCache | undefined;
  let loadedAt = 0;
  let loading: Promise<void> | undefined;
  const reloadSchema = () => {
    loading ??= loadSchemaCache(db)
      .then((s) => {
        schema = s;
        loadedAt = Date.now();
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };
  const ready = reloadSchema();
  ready.catch((err: unknown) => console.error('[rest] schema cache load failed', err));

  const app = new Hono();

  app.options('*', (c) =>
    c.body(null, 200, {
      ...CORS_HEADERS,
      'Access-Control-Allow-Methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD',
      'Access-Control-Allow-Headers':
        c.req.header('access-control-request-headers') ??
        'Authorization, Content-Type, Accept, Accept-Profile, Content-Profile, Prefer, Range, apikey, x-client-info',
      'Access-Control-Max-Age': '86400',
    }),
  );

  const serve = async (
    c: Context,
    handler: Handler,
    name: string,
    path: string,
  ): Promise<Response> => {
    let auth: RequestAuth | undefined;
    try {
      const profile = c.req.header('accept-profile') ?? c.req.header('content-profile');
      if (profile && profile !== 'public')
        throw new RestError(406, 'PGRST106', 'The schema must be one of the following: public');
      auth = await authenticate(c.req.header('authorization'), c.req.header('apikey'), {
        verify,
        anonRole,
        allowedRoles,
      });
      if (!schema) {
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
      let bodyText: Promise<string> | undefined;
      const headers = requestHeaders(c);
      const makeCtx = (): HandlerContext => ({
        db,
        schema: schema as SchemaCache,
        request: { auth: auth as RequestAuth, method: c.req.method, path, headers },
        auth: auth as RequestAuth,
        url: new URL(c.req.url),
        method: c.req.method,
        headers: c.req.raw.headers,
        prefs: parsePrefer(c.req.raw.headers.get('prefer')),
        media: negotiate(c.req.header('accept')),
        readBody: () => (bodyText ??= readBoundedText(c.req.raw)),
        maxRows,
      });
      let response: Response;
      try {
        response = await handler(makeCtx(), name);
      } catch (err) {
        if (
          !(err instanceof RestError) ||
          !STALE_CODES.has(err.code) ||
          Date.now() - loadedAt < RELOAD_INTERVAL_MS
        )
          throw err;
        await reloadSchema();
        response = await handler(makeCtx(), name);
      }
      if (!hasCorsHeaders(response))
        for (const [k, v] of Object.entries(CORS_HEADERS)) response.headers.set(k, v);
      return response;
    } catch (err) {
      const e = toRestError(err, auth?.authenticated ?? false);
      return new Response(c.req.method === 'HEAD' ? null : JSON.stringify(e.body()), {
        status: e.status,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          ...CORS_HEADERS,
          ...e.headers,
        },
      });
    }
  };

  app.all('/rpc/:fn', (c) => serve(c, handleRpc, c.req.param('fn'), `/rpc/${c.req.param('fn')}`));
  app.all('/:table', (c) => {
    const table = c.req.param('table');
    const handler: Handler | undefined = {
      GET: handleRead,
      HEAD: handleRead,
      POST: handleInsert,
      PATCH: handleUpdate,
      PUT: handlePut,
      DELETE: handleDelete,
    }[c.req.method];
    if (!handler) {
      return serve(
        c,
        () =>
          Promise.reject(
            new RestError(405, 'PGRST117', `Unsupported HTTP method: ${c.req.method}`),
          ),
        table,
        `/${table}`,
      );
    }
    return serve(c, handler, table, `/${table}`);
  });
  // PostgREST serves an OpenAPI document at the root; this server does not (docs/rest-api.md).
  app.all('*', (c) =>
    serve(
      c,
      () => Promise.reject(new RestError(404, 'PGRST125', 'Invalid path specified in request URL')),
      '',
      c.req.path,
    ),
  );

  return Object.assign(app, { reloadSchema, ready });
}
