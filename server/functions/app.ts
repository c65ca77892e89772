/**
 * `/functions/v1/<name>`: runs `supabase/functions/<name>/handler.ts` as Supabase Edge's relay
 * does: JWT verified first (unless the function's config.json says `verify_jwt: false`), CORS
 * preflight handed to the function, the Request passed through unchanged. Handlers reach the
 * database through supabase-js at SUPABASE_URL (default: this server, by the socket's local
 * address, never by the Host header).
 */
import type { IncomingMessage } from 'node:http';
import { Hono, type Context } from 'hono';
import type { Database } from '../db/database';
import { createJwtVerifier, verificationSecrets, type Keys } from '../keys';
import { clientIp } from '../auth/context';
import { authenticate } from '../rest/auth';
import { nodeFunctionContext } from './node-context';
import { createFunctionRegistry, type LoadedFunction } from './registry';
import type { FunctionContext } from '../../supabase/functions/_shared/context.ts';

export interface FunctionsAppOptions {
  /** Reserved for functions that need the server's own database; handlers use supabase-js. */
  db: Database;
  keys: Pick<Keys, 'jwtSecret' | 'previousJwtSecret' | 'anonKey' | 'serviceRoleKey'>;
  /** The functions' environment (secrets). SUPABASE_URL here overrides the default. */
  env?: Record<string, string | undefined>;
  /** Default: `supabase/functions` of this repository. */
  functionsDir?: string;
  /**
   * The local payment sandbox is served by this server (no STRIPE_SECRET_KEY): the functions'
   * STRIPE_API_URL is this server's local origin, as SUPABASE_URL is.
   */
  localStripeApi?: boolean;
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
};

function relayError(c: Context, status: 401 | 404 | 500, code: string, message: string) {
  return c.json({ code, message }, status, CORS);
}

/** `http://<address the request came in on>:<port>`: reachable, and not chosen by the client. */
function localOrigin(c: Context): string | null {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const socket = incoming?.socket;
  if (!socket?.localPort || !socket.localAddress) return null;
  const address = socket.localAddress.replace(/^::ffff:/, '');
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${socket.localPort}`;
}

export function createFunctionsApp(options: FunctionsAppOptions): Hono {
  const { keys, env = {} } = options;
  const registry = createFunctionRegistry(options.functionsDir);
  const verify = createJwtVerifier(verificationSecrets(keys));
  const allowedRoles = new Set(['anon', 'authenticated', 'service_role']);
  const contexts = new Map<string, FunctionContext>();
  const contextFor = (url: string) => {
    let ctx = contexts.get(url);
    if (!ctx) {
      ctx = nodeFunctionContext({
        ...env,
        SUPABASE_URL: url,
        SUPABASE_ANON_KEY: keys.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
        ...(options.localStripeApi ? { STRIPE_API_URL: url } : {}),
      });
      contexts.set(url, ctx);
    }
    return ctx;
  };

  const trustProxy = /^(1|true|yes|on)$/i.test(env.TRUST_PROXY?.trim() ?? '');
  const app = new Hono();
  const run = async (c: Context) => {
    const name = c.req.param('name') ?? '';
    const entry = registry.get(name);
    if (!entry) return relayError(c, 404, 'NOT_FOUND', 'Requested function was not found');
    let fn: LoadedFunction;
    try {
      fn = await entry;
    } catch (err) {
      console.error(`[functions] ${name} failed to load`, err);
      return relayError(c, 500, 'BOOT_ERROR', 'Function failed to start (please check logs)');
    }
    if (fn.verifyJwt && c.req.method !== 'OPTIONS') {
      const authorization = c.req.header('authorization');
      if (!authorization) {
        return relayError(c, 401, 'UNAUTHORIZED_NO_AUTH_HEADER', 'Missing authorization header');
      }
      try {
        await authenticate(authorization, undefined, { verify, anonRole: 'anon', allowedRoles });
      } catch {
        return relayError(c, 401, 'UNAUTHORIZED_INVALID_JWT_FORMAT', 'Invalid JWT');
      }
    }
    const url = env.SUPABASE_URL || localOrigin(c);
    if (!url) {
      console.error('[functions] SUPABASE_URL is not set and the local address is unknown');
      return relayError(c, 500, 'BOOT_ERROR', 'Function failed to start (please check logs)');
    }
    // As Supabase Edge's relay: X-Forwarded-For names the client (rate limits per IP), never
    // what the client sent unless TRUST_PROXY says a proxy in front sets it.
    const req = c.req.raw;
    req.headers.set('x-forwarded-for', clientIp(c, trustProxy));
    try {
      return await fn.handler(req, contextFor(url));
    } catch (err) {
      console.error(`[functions] ${name} threw`, err);
      return relayError(
        c,
        500,
        'WORKER_ERROR',
        'Function exited due to an error (please check logs)',
      );
    }
  };
  app.all('/:name', run);
  app.all('/:name/*', run);
  return app;
}
