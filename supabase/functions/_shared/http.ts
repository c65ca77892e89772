/**
 * HTTP helpers every function uses: CORS (browsers call functions cross-origin on Supabase, and
 * the Edge gateway leaves preflight to the function), JSON responses and bodies, the caller.
 */
import type { FunctionContext, FunctionHandler } from './context.ts';

export const corsHeaders: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, x-region',
  'Access-Control-Allow-Methods': 'POST, GET, OPTIONS, PUT, PATCH, DELETE',
  'Access-Control-Max-Age': '86400',
};

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json', ...headers },
  });
}

/** `{error}` with a status: what supabase-js surfaces as FunctionsHttpError's context. */
export function errorResponse(message: string, status = 400): Response {
  return json({ error: message }, status);
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** The JSON object body, or HttpError 400. */
export async function readJsonObject(req: Request): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    throw new HttpError(400, 'Request body must be JSON.');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'Request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

/**
 * The claims of the caller's JWT, decoded WITHOUT verification: only for functions deployed with
 * JWT verification on, where the gateway (Supabase) or the embedded runner has verified it.
 */
export function callerClaims(req: Request): Record<string, unknown> | null {
  const m = /^Bearer\s+([^.\s]+)\.([^.\s]+)\.([^.\s]*)$/i.exec(
    req.headers.get('authorization') ?? '',
  );
  if (!m?.[2]) return null;
  try {
    const b64 = m[2].replace(/-/g, '+').replace(/_/g, '/');
    const text = new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
    const claims: unknown = JSON.parse(text);
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The signed-in caller's user id (`sub` of an `authenticated` JWT), or null. */
export function callerId(req: Request): string | null {
  const claims = callerClaims(req);
  return claims?.role === 'authenticated' && typeof claims.sub === 'string' ? claims.sub : null;
}

/**
 * Wraps a handler: answers CORS preflight, adds CORS headers to every response, turns HttpError
 * into `{error}` and anything unexpected into a logged 500.
 */
export function withCors(
  handler: (req: Request, ctx: FunctionContext) => Promise<Response>,
): FunctionHandler {
  return async (req, ctx) => {
    if (req.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    try {
      const res = await handler(req, ctx);
      // A fresh Response: headers of a fetched one are immutable.
      const headers = new Headers(res.headers);
      for (const [k, v] of Object.entries(corsHeaders)) if (!headers.has(k)) headers.set(k, v);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    } catch (err) {
      if (err instanceof HttpError) return errorResponse(err.message, err.status);
      console.error('[function]', err);
      return errorResponse('Internal Server Error', 500);
    }
  };
}

/**
 * The signed-in caller acting for themselves: the body's `userId` (the spec's payloads carry
 * one) must be theirs. HttpError 401 signed out, 403 for someone else.
 */
export function ownCaller(req: Request, body: Record<string, unknown>): string {
  const caller = callerId(req);
  if (!caller) throw new HttpError(401, 'Not authenticated');
  if (body.userId !== undefined && body.userId !== caller) {
    throw new HttpError(403, 'You can only change your own subscription.');
  }
  return caller;
}
