/**
 * PostgREST's `db-schemas` (docs/rest-api.md#several-schemas): which schemas `/rest/v1` exposes,
 * and which one a request is for (`Accept-Profile` on GET/HEAD, `Content-Profile` on writes).
 */
import { RestError } from './errors';
import { quoteIdent } from './ident';

/** The schemas `REST_DB_SCHEMAS` names (comma-separated; default `public`, the first is the default). */
export function parseDbSchemas(value: string | undefined): string[] {
  const schemas = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return schemas.length ? [...new Set(schemas)] : ['public'];
}

/** A switch such as `REST_DB_PLAN_ENABLED`: `1`/`true`/`on`/`yes` or `0`/`false`/`off`/`no` (unset: off). */
export function parseFlag(name: string, value: string | undefined): boolean {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false' || v === 'off' || v === 'no') return false;
  if (v === '1' || v === 'true' || v === 'on' || v === 'yes') return true;
  throw new Error(`${name} may be "on" or "off", got "${value}"`);
}

export interface RequestSchema {
  name: string;
  /**
   * Whether the response says `Content-Profile`: a profile header was sent, or several schemas
   * are exposed (PostgREST's `iNegotiatedByProfile`).
   */
  negotiated: boolean;
}

/**
 * The schema of one request, as PostgREST's `getSchema`: POST, PATCH, PUT and DELETE read
 * `Content-Profile`, every other method `Accept-Profile`; none → the first exposed schema; a
 * schema not exposed → 406 PGRST106, worded as PostgREST 12 and 13 word it.
 */
export function requestSchema(
  method: string,
  headers: Record<string, string>,
  schemas: readonly string[],
): RequestSchema {
  const writes = method === 'POST' || method === 'PATCH' || method === 'PUT' || method === 'DELETE';
  const profile = writes ? headers['content-profile'] : headers['accept-profile'];
  if (profile === undefined)
    return { name: schemas[0] ?? 'public', negotiated: schemas.length > 1 };
  if (!schemas.includes(profile))
    throw new RestError(
      406,
      'PGRST106',
      `The schema must be one of the following: ${schemas.join(', ')}`,
    );
  return { name: profile, negotiated: true };
}

/**
 * The REST settings `npm start` reads from the environment (README's table): `REST_DB_SCHEMAS`
 * (default `public`) and `REST_DB_PLAN_ENABLED` (default off). Soundloft keeps both defaults.
 */
export function restSettingsFromEnv(env: NodeJS.ProcessEnv): {
  dbSchemas: string[];
  planEnabled: boolean;
} {
  return {
    dbSchemas: parseDbSchemas(env.REST_DB_SCHEMAS),
    planEnabled: parseFlag('REST_DB_PLAN_ENABLED', env.REST_DB_PLAN_ENABLED),
  };
}

/**
 * The transaction's `search_path` for a request to `schema`, as PostgREST sets it (the request's
 * schema, then `db-extra-search-path`, hosted Supabase's `public, extensions`), so unqualified
 * names in that schema's functions and views resolve there first. Undefined for `public`: the
 * connection's own path already starts there, and Soundloft's requests stay as they were.
 */
export function searchPathFor(schema: string): string | undefined {
  return schema === 'public' ? undefined : `${quoteIdent(schema)}, public, extensions`;
}
