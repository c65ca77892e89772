import type { Database } from '../db/database';
import type { RequestAuth } from './auth';
import { RestError, tableNotFound } from './errors';
import type { RequestContext } from './executor';
import type { negotiate, Preferences } from './headers';
import type { SchemaCache, TableInfo } from './schema-cache';

/**
 * One request as the REST core sees it, from Hono's context (server/rest/app.ts) or straight from
 * node:http (server/rest/node.ts).
 */
export interface RestRequest {
  method: string;
  /** The full request URL (its query string is parsed; its origin is not used). */
  url: string;
  /** Lower-case names, repeated headers joined as Fetch's `Headers.get` joins them. */
  headers: Record<string, string>;
  /** The body as text, bounded (413 beyond MAX_BODY_BYTES). */
  readBody: () => Promise<string>;
}

export type PlanOption = 'analyze' | 'verbose' | 'settings' | 'buffers' | 'wal';

/** An execution plan asked for by `Accept` (server/rest/explain.ts). */
export interface PlanRequest {
  format: 'json' | 'text';
  /** The media type the plan is for (`for="..."`). */
  forMedia: string;
  options: PlanOption[];
}

/** Everything a handler needs about one request. */
export interface HandlerContext {
  db: Database;
  schema: SchemaCache;
  request: RequestContext;
  auth: RequestAuth;
  url: URL;
  method: string;
  /** Lower-case names; repeated headers joined as Fetch's `Headers.get` joins them. */
  headers: Record<string, string>;
  prefs: Preferences;
  media: ReturnType<typeof negotiate>;
  readBody: () => Promise<string>;
  /** PostgREST's db-max-rows (hosted Supabase's "Max rows", default 1000); undefined = no cap. */
  maxRows?: number;
  /** PostgREST's db-aggregates-enabled (server/rest/aggregates.ts); off by default. */
  aggregatesEnabled?: boolean;
  /** The execution plan asked for (`.explain()`, only with db-plan-enabled): server/rest/explain.ts. */
  plan?: PlanRequest;
}

/** The page actually read: the requested range, capped by db-max-rows. */
export function cappedLimit(ctx: HandlerContext, limit: number | undefined): number | undefined {
  if (ctx.maxRows === undefined) return limit;
  return limit === undefined ? ctx.maxRows : Math.min(limit, ctx.maxRows);
}

export function findTable(schema: SchemaCache, name: string): TableInfo {
  const table = schema.tables.get(name);
  if (table) return table;
  throw tableNotFound(name, suggest(name, [...schema.tables.keys()]), schema.name);
}

/** The closest known name (edit distance ≤ 2), like PostgREST's "Perhaps you meant" hints. */
export function suggest(name: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of candidates) {
    const d = distance(name, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 99;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j] ?? 0;
      row[j] = Math.min(
        (row[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        prev + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      prev = tmp;
    }
  }
  return row[b.length] ?? 99;
}

export const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit, Preference-Applied',
};

/**
 * What a handler answers: status, body (null: none) and headers, CORS included. Plain data, no
 * Fetch `Response`: the Node fast path writes it with one `writeHead` + `end`
 * (server/rest/node.ts) and the Hono route wraps it in a Response (profiled: docs/rest-api.md#speed).
 */
export interface RestResponse {
  status: number;
  body: string | null;
  headers: Record<string, string>;
}

/** A handler's response, CORS headers included. */
export function respond(
  status: number,
  body: string | null,
  headers: Record<string, string | undefined>,
): RestResponse {
  const h: Record<string, string> = { ...CORS_HEADERS };
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined) h[k] = v;
  }
  return { status, body: status === 204 ? null : body, headers: h };
}

/** 406 PGRST116 when a single object was asked for and the result is not exactly one row. */
export function singularityError(rows: number): RestError {
  return new RestError(
    406,
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${rows} rows`,
  );
}

/** Parses a JSON request body (PGRST102 on empty or malformed). */
export function parseJsonBody(text: string, allowEmpty = false): unknown {
  if (text.trim() === '') {
    if (allowEmpty) return {};
    throw new RestError(400, 'PGRST102', 'Empty or invalid json');
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json');
  }
  if (nestingDepth(value) > MAX_JSON_DEPTH)
    throw new RestError(400, 'PGRST102', `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  return value;
}

/**
 * Deepest nesting a body may have. JSON.parse accepts any depth, but serialising it again (the
 * statement's parameter) overflows the stack at a few thousand levels, a 500 (found by
 * tests/security/bad-requests.test.ts); Postgres's own jsonb limit is lower still.
 */
export const MAX_JSON_DEPTH = 256;

/** Nesting depth of a parsed JSON value, without recursion. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [v, depth] = next;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}
