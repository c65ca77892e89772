/**
 * `postgres_changes` filters as Supabase Realtime parses them (`Subscriptions.parse_subscription_params`):
 * `column=op.value`, several joined by commas (all must hold), `not.` negates, values may be
 * double-quoted (`name=eq."a,b"`), `in.(a,b)` lists. Operators: eq, neq, lt, lte, gt, gte, in,
 * is, like, ilike. Evaluated on the row's JSON values (numbers compare as numbers, everything else
 * as its text), which is what Postgres does for the column types the app filters on (uuid, text,
 * integers, booleans).
 */

export type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'is' | 'like' | 'ilike';

export interface Filter {
  column: string;
  op: FilterOp;
  /** The value (for `in`: the list). */
  value: string | string[];
  negate: boolean;
}

const OPS = new Set<FilterOp>(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'is', 'like', 'ilike']);

export class FilterError extends Error {
  constructor(message: string) {
    super(`Error parsing \`filter\` params: ${message}`);
  }
}

/** Splits on commas outside double quotes and parentheses. */
function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      current += ch;
      if (ch === '\\' && i + 1 < text.length) current += text[++i];
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts;
}

/** `"a\"b"` → `a"b`; an unterminated or trailing-text quote stays literal (as PostgREST does). */
function unquote(value: string): string {
  if (!value.startsWith('"')) return value;
  let out = '';
  for (let i = 1; i < value.length; i++) {
    const ch = value[i] as string;
    if (ch === '\\' && i + 1 < value.length) {
      out += value[++i];
      continue;
    }
    if (ch === '"') return i === value.length - 1 ? out : value;
    out += ch;
  }
  return value;
}

export function parseFilter(filter: string | undefined | null): Filter[] {
  if (filter === undefined || filter === null || filter.trim() === '') return [];
  const segments = splitTop(filter);
  if (segments.some((s) => s.trim() === ''))
    throw new FilterError('filter string has empty segments');
  return segments.map((segment) => {
    const eq = segment.indexOf('=');
    if (eq <= 0) throw new FilterError(`expected column=operator.value, got ${segment}`);
    const column = segment.slice(0, eq).trim();
    let rest = segment.slice(eq + 1);
    let negate = false;
    if (rest.startsWith('not.')) {
      negate = true;
      rest = rest.slice(4);
    }
    const dot = rest.indexOf('.');
    const op = (dot < 0 ? rest : rest.slice(0, dot)) as FilterOp;
    if (dot < 0 || !OPS.has(op)) throw new FilterError(`unsupported operator in ${segment}`);
    const raw = rest.slice(dot + 1);
    if (op === 'in') {
      if (!raw.startsWith('(') || !raw.endsWith(')'))
        throw new FilterError(`in needs a list: ${segment}`);
      const inner = raw.slice(1, -1);
      const items = inner === '' ? [] : splitTop(inner).map((v) => unquote(v.trim()));
      return { column, op, value: items, negate };
    }
    return { column, op, value: unquote(raw), negate };
  });
}

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function compare(value: unknown, target: string): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    const n = Number(target);
    if (target.trim() !== '' && !Number.isNaN(n)) return value - n;
  }
  const a = text(value) as string;
  return a < target ? -1 : a > target ? 1 : 0;
}

function likeRegex(pattern: string, insensitive: boolean): RegExp {
  const body = pattern
    .split('')
    .map((ch) =>
      ch === '%' || ch === '*'
        ? '.*'
        : ch === '_'
          ? '.'
          : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${body}$`, insensitive ? 'is' : 's');
}

function holds(filter: Filter, value: unknown): boolean {
  const { op } = filter;
  if (op === 'is') {
    const v = String(filter.value).toLowerCase();
    if (v === 'null') return value === null || value === undefined;
    if (v === 'true') return value === true;
    if (v === 'false') return value === false;
    return false;
  }
  if (value === null || value === undefined) return false; // SQL: comparisons with null are not true
  if (op === 'in') return (filter.value as string[]).some((v) => compare(value, v) === 0);
  const target = filter.value as string;
  if (op === 'like' || op === 'ilike')
    return likeRegex(target, op === 'ilike').test(text(value) as string);
  const c = compare(value, target) as number;
  switch (op) {
    case 'eq':
      return c === 0;
    case 'neq':
      return c !== 0;
    case 'lt':
      return c < 0;
    case 'lte':
      return c <= 0;
    case 'gt':
      return c > 0;
    case 'gte':
      return c >= 0;
  }
}

/**
 * Whether a row passes every filter. A filter on a column the row does not carry is ignored, as
 * in Realtime's `is_visible_through_filters`: a delete carries only its primary key, so a filter
 * on another column does not hold it back.
 */
export function matchesFilters(filters: Filter[], row: Record<string, unknown>): boolean {
  return filters.every((f) => {
    if (!(f.column in row)) return true;
    const ok = holds(f, row[f.column]);
    return f.negate ? !ok : ok;
  });
}
