import type { HandlerContext } from './context';
import type { SchemaCache } from './schema-cache';

/**
 * `Accept: application/geo+json` (PostgREST's built-in GeoJSON handler): the rows become one
 * FeatureCollection built by PostGIS, `json_build_object('type', 'FeatureCollection', 'features',
 * coalesce(json_agg(ST_AsGeoJSON(row)::json), '[]'))`. PostgREST calls ST_AsGeoJSON unqualified
 * and finds it through its search path (Supabase: `public, extensions`); this server's request
 * transactions do not search `extensions`, so the function is looked up in the catalog once per
 * schema cache and called by its schema. Without PostGIS (always on PGlite) the call stays
 * unqualified and Postgres answers what it answers PostgREST: 42883, function st_asgeojson(record)
 * does not exist, HTTP 404.
 */
const FIND_SQL = `
select quote_ident(n.nspname) || '.st_asgeojson' as fn
from pg_proc p join pg_namespace n on n.oid = p.pronamespace
where p.proname = 'st_asgeojson' and p.pronargs >= 1 and p.proargtypes[0] = 'record'::regtype
order by n.nspname limit 1`;

const UNQUALIFIED = 'ST_AsGeoJSON';
const found = new WeakMap<SchemaCache, string>();

/** Looks the function up (once per schema cache) when the request asks for GeoJSON. */
export async function resolveGeoJson(ctx: HandlerContext): Promise<void> {
  if (ctx.media.kind !== 'geojson' || found.has(ctx.schema)) return;
  const r = await ctx.db.query<{ fn: string }>(FIND_SQL);
  found.set(ctx.schema, r.rows[0]?.fn ?? UNQUALIFIED);
}

/** The ST_AsGeoJSON to call when the request asks for GeoJSON (after resolveGeoJson), else undefined. */
export function geoJsonFunction(ctx: HandlerContext): string | undefined {
  if (ctx.media.kind !== 'geojson') return undefined;
  return found.get(ctx.schema) ?? UNQUALIFIED;
}

/** The FeatureCollection of the rows aliased `rows`, as PostgREST's asGeoJsonF builds it. */
export function featureCollectionSql(fn: string, rows: string): string {
  return `json_build_object('type', 'FeatureCollection', 'features', coalesce(json_agg(${fn}(${rows})::json), '[]'))`;
}
