/**
 * Runs SQL as an API request would: one transaction that first switches to the JWT's role and
 * publishes the claims and request details exactly as PostgREST and Supabase Storage do, so RLS
 * policies and auth.uid() / auth.jwt() / auth.role() see the same thing as on hosted Supabase.
 * Every setting is transaction-local (set_config(..., true)): nothing leaks to the next request.
 */
import type { Database, Queryable, Statement } from './database';

/** The roles a request may run as. A JWT naming any other role is refused. */
export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const;
export type ApiRole = (typeof API_ROLES)[number];

export type JwtClaims = Record<string, unknown>;

export interface RequestInfo {
  method?: string;
  path?: string;
  /** Lower-case header names, as PostgREST publishes them in request.headers. */
  headers?: Record<string, string>;
}

export class RoleError extends Error {
  constructor(role: string) {
    super(`role "${role}" does not exist`);
    this.name = 'RoleError';
  }
}

/** The role a request runs as: the JWT's `role` claim, anon without claims. */
export function roleOf(claims: JwtClaims | null): ApiRole {
  const role = claims?.role ?? 'anon';
  if (typeof role !== 'string' || !(API_ROLES as readonly string[]).includes(role)) {
    throw new RoleError(String(role));
  }
  return role as ApiRole;
}

/**
 * The statement that switches an open transaction to the request's role and publishes its claims
 * and request details (the first statement of every request). Throws RoleError for a role
 * outside API_ROLES.
 */
export function requestContextStatement(
  claims: JwtClaims | null,
  request: RequestInfo = {},
): Statement {
  const role = roleOf(claims);
  return {
    sql: REQUEST_CONTEXT_SQL,
    params: [
      role,
      claims ? claimsJson(claims) : JSON.stringify({ role }),
      request.method ?? 'POST',
      request.path ?? '/',
      JSON.stringify(lowerCaseKeys(request.headers ?? {})),
    ],
  };
}

/**
 * The claims' JSON, kept per claims object: the REST gateway's JWT verifier hands out the same
 * (frozen) object for every request with the same token, so it is serialised once per token,
 * not once per request (docs/rest-api.md#speed).
 */
const claimsJsonOf = new WeakMap<JwtClaims, string>();
function claimsJson(claims: JwtClaims): string {
  let json = claimsJsonOf.get(claims);
  if (json === undefined) {
    json = JSON.stringify(claims);
    if (Object.isFrozen(claims)) claimsJsonOf.set(claims, json);
  }
  return json;
}

/** `headers` itself when its names are lower case already (Node's and the gateway's are). */
function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  for (const k in headers) {
    if (k !== k.toLowerCase())
      return Object.fromEntries(Object.entries(headers).map(([n, v]) => [n.toLowerCase(), v]));
  }
  return headers;
}

const REQUEST_CONTEXT_SQL = `select set_config('role', $1, true),
            set_config('request.jwt.claims', $2, true),
            set_config('request.method', $3, true),
            set_config('request.path', $4, true),
            set_config('request.headers', $5, true)`;

/**
 * Runs `fn` in one transaction as the role of `claims` (null = anon) and returns its result.
 * The context statement is the transaction's prelude (on PostgreSQL it travels with BEGIN and
 * `fn`'s first statement). Throws RoleError for a role outside API_ROLES.
 */
export async function asRole<T>(
  db: Database,
  claims: JwtClaims | null,
  fn: (tx: Queryable) => Promise<T>,
  request: RequestInfo = {},
): Promise<T> {
  // Built before the transaction opens: an unknown role is refused without one.
  const context = requestContextStatement(claims, request);
  return await db.transaction(fn, { prelude: [context] });
}
