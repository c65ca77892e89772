import { RestError } from './errors';

export interface Preferences {
  return?: 'minimal' | 'representation' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  handling?: 'strict' | 'lenient';
  tx?: 'commit' | 'rollback';
  /** `max-affected=N` (PostgREST 13): enforced on PATCH, DELETE and RPC with handling=strict. */
  maxAffected?: number;
  /** Applied preferences, in PostgREST's order, for `Preference-Applied`. */
  applied: string[];
  invalid: string[];
}

const ALLOWED: Record<string, readonly string[]> = {
  return: ['minimal', 'representation', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  handling: ['strict', 'lenient'],
  tx: ['commit', 'rollback'],
};

/**
 * `Prefer: return=representation, count=exact` (RFC 7240; several headers are joined). The
 * first of each preference counts, as in PostgREST. `tx=` is valid always but honoured only when
 * the server allows the override (`allowTxOverride`, db-tx-end *-allow-override).
 */
export function parsePrefer(
  header: string | null | undefined,
  allowTxOverride = false,
): Preferences {
  const prefs: Preferences = { applied: [], invalid: [] };
  if (!header) return prefs;
  const set = prefs as unknown as Record<string, string | number | undefined>;
  for (const token of header.split(',')) {
    const trimmed = token.trim();
    if (!trimmed) continue;
    const [rawName, rawValue = ''] = trimmed.split('=', 2);
    const name = (rawName ?? '').trim();
    const value = rawValue.trim();
    const allowed = ALLOWED[name];
    if (name === 'max-affected' && trimmed.startsWith('max-affected=')) {
      // Like PostgREST: never an invalid preference; a value that is not an integer is ignored.
      if (/^-?\d{1,18}$/.test(value)) prefs.maxAffected ??= Number(value);
    } else if (allowed?.includes(value)) {
      if (name === 'tx' && !allowTxOverride) continue;
      set[name] ??= value;
    } else {
      prefs.invalid.push(trimmed);
    }
  }
  if (prefs.handling === 'strict' && prefs.invalid.length) {
    throw new RestError(
      400,
      'PGRST122',
      'Invalid preferences given with handling=strict',
      `Invalid preferences: ${prefs.invalid.join(', ')}`,
    );
  }
  return prefs;
}

/**
 * The `Preference-Applied` value for the preferences a request kind honours, in PostgREST 13's
 * order. `tx` is applied to every request when given (parsePrefer keeps it only when the server
 * allows the override); `max-affected` only with handling=strict, as PostgREST answers.
 */
export function preferenceApplied(
  prefs: Preferences,
  honoured: (keyof typeof ALLOWED | 'max-affected')[],
): string | undefined {
  const order: (keyof typeof ALLOWED)[] = [
    'resolution',
    'missing',
    'return',
    'count',
    'tx',
    'handling',
  ];
  const parts = order
    .filter((k) => k === 'tx' || honoured.includes(k))
    .map((k) => [k, (prefs as unknown as Record<string, string | undefined>)[k]] as const)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`);
  if (
    honoured.includes('max-affected') &&
    prefs.handling === 'strict' &&
    prefs.maxAffected !== undefined
  )
    parts.push(`max-affected=${prefs.maxAffected}`);
  return parts.length ? parts.join(', ') : undefined;
}

export interface RangeSpec {
  offset: number;
  limit?: number;
}

/** `Range: 0-9` (Range-Unit items); invalid ranges are ignored as PostgREST does, inverted ones are 416. */
export function parseRangeHeader(header: string | null | undefined): RangeSpec | undefined {
  if (!header) return undefined;
  const m = /^\s*(?:items=)?(\d+)-(\d*)\s*$/.exec(header);
  if (!m) return undefined;
  const from = Number(m[1]);
  if (m[2] === '') return { offset: from };
  const to = Number(m[2]);
  if (to < from)
    throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', null, null);
  return { offset: from, limit: to - from + 1 };
}

/** Intersects `limit`/`offset` query params with the Range header. */
export function combineRange(
  header: RangeSpec | undefined,
  limit?: number,
  offset?: number,
): RangeSpec {
  const qOffset = offset ?? 0;
  if (!header) return { offset: qOffset, limit };
  const start = Math.max(header.offset, qOffset);
  const ends = [
    header.limit !== undefined ? header.offset + header.limit : undefined,
    limit !== undefined ? qOffset + limit : undefined,
  ].filter((v): v is number => v !== undefined);
  const end = ends.length ? Math.min(...ends) : undefined;
  return { offset: start, limit: end === undefined ? undefined : Math.max(0, end - start) };
}

/** PostgREST's Content-Range (`0-9/*`, `0-9/100`, `*\/0`). */
export function contentRange(lower: number, upper: number, total: number | undefined): string {
  const totalStr = total === undefined ? '*' : String(total);
  const inRange = lower <= upper && total !== 0;
  return `${inRange ? `${lower}-${upper}` : '*'}/${totalStr}`;
}

export function rangeStatus(lower: number, upper: number, total: number | undefined): number {
  if (total === undefined) return 200;
  if (lower > total) return 416;
  if (1 + upper - lower < total) return 206;
  return 200;
}

export type MediaKind = 'array' | 'object' | 'csv' | 'geojson';

/** Chooses the response media type from `Accept` (406 PGRST107 when none fits). */
export function negotiate(accept: string | null | undefined): {
  kind: MediaKind;
  stripNulls: boolean;
  contentType: string;
} {
  if (!accept)
    return { kind: 'array', stripNulls: false, contentType: 'application/json; charset=utf-8' };
  const ranges = accept.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    return { type: type.toLowerCase(), params, q: q ? Number(q.slice(2)) : 1 };
  });
  ranges.sort((a, b) => b.q - a.q);
  for (const r of ranges) {
    if (r.q <= 0) continue;
    const stripNulls = r.params.includes('nulls=stripped');
    if (
      r.type === 'application/vnd.pgrst.object+json' ||
      r.type === 'application/vnd.pgrst.object'
    ) {
      return {
        kind: 'object',
        stripNulls,
        contentType: 'application/vnd.pgrst.object+json; charset=utf-8',
      };
    }
    if (r.type === 'application/vnd.pgrst.array+json') {
      return {
        kind: 'array',
        stripNulls,
        contentType: 'application/vnd.pgrst.array+json; charset=utf-8',
      };
    }
    if (r.type === 'text/csv')
      return { kind: 'csv', stripNulls: false, contentType: 'text/csv; charset=utf-8' };
    if (r.type === 'application/geo+json') {
      // PostGIS builds it (server/rest/geojson.ts).
      return {
        kind: 'geojson',
        stripNulls: false,
        contentType: 'application/geo+json; charset=utf-8',
      };
    }
    if (
      ['application/json', 'application/*', '*/*', 'application/vnd.pgrst.array'].includes(r.type)
    ) {
      return { kind: 'array', stripNulls: false, contentType: 'application/json; charset=utf-8' };
    }
  }
  throw new RestError(
    406,
    'PGRST107',
    `None of these media types are available: ${ranges.map((r) => r.type).join(', ')}`,
  );
}
