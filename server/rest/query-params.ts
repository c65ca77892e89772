import type { Condition, LevelParams, SelectItem } from './ast';
import { splitTopLevel, unquote } from './cursor';
import { parseError } from './errors';
import { parseFilter, parseLogicTree, parseNonNegativeInt, parseOrder } from './parse-filter';
import { parseSelect } from './parse-select';

/** The query string, parsed: select, write options and per-level (root or embed path) params. */
export interface ParsedQuery {
  select: SelectItem[];
  /** `select` given explicitly (mutations return only with it; default `*`). */
  selectGiven: boolean;
  columns?: string[];
  onConflict?: string[];
  /** Keyed by embed path joined with '.', '' for the root. */
  levels: Map<string, LevelParams>;
  /** Root-level plain filters as written (`col` → value), used by PUT and Location. */
  rootEq: { column: string; value: string; negate: boolean; op: string }[];
  /** Query params the caller claimed (RPC arguments on GET). */
  args: Map<string, string>;
}

const ROOT_ONLY = new Set(['select', 'columns', 'on_conflict']);

export function emptyLevel(): LevelParams {
  return { conditions: [], embedNullness: [] };
}

function level(levels: Map<string, LevelParams>, path: string[]): LevelParams {
  const key = path.join('.');
  let found = levels.get(key);
  if (!found) {
    found = emptyLevel();
    levels.set(key, found);
  }
  return found;
}

function parseNameList(what: string, value: string): string[] {
  const names = splitTopLevel(value, what, value).map((n) => unquote(n.trim()));
  if (names.some((n) => n === ''))
    throw parseError(what, value, 'unexpected "," expecting a column name');
  return names;
}

/**
 * Splits a query string into PostgREST's parts. `isArg` claims keys as RPC arguments (GET /rpc).
 * Embedded nullness (`embed=is.null`) is resolved later, when the select's embeds are known.
 */
export function parseQuery(
  params: URLSearchParams,
  isArg: (key: string) => boolean = () => false,
): ParsedQuery {
  const selectRaw = params.get('select');
  const parsed: ParsedQuery = {
    select: selectRaw === null ? [{ kind: 'star' }] : parseSelect(selectRaw),
    selectGiven: selectRaw !== null,
    levels: new Map([['', emptyLevel()]]),
    rootEq: [],
    args: new Map(),
  };
  for (const [key, value] of params) {
    if (ROOT_ONLY.has(key)) {
      if (key === 'columns') parsed.columns = parseNameList('columns', value);
      else if (key === 'on_conflict') parsed.onConflict = parseNameList('on_conflict', value);
      continue;
    }
    if (isArg(key)) {
      parsed.args.set(key, value);
      continue;
    }
    const segments = key.split('.');
    let negateLogic = false;
    const last = segments.pop() ?? '';
    if ((last === 'or' || last === 'and') && segments[segments.length - 1] === 'not') {
      segments.pop();
      negateLogic = true;
    }
    const lvl = level(parsed.levels, segments);
    switch (last) {
      case 'order':
        lvl.order = parseOrder(value);
        break;
      case 'limit':
        lvl.limit = parseNonNegativeInt('limit', value);
        break;
      case 'offset':
        lvl.offset = parseNonNegativeInt('offset', value);
        break;
      case 'or':
      case 'and':
        lvl.conditions.push(parseLogicTree(last, negateLogic, value));
        break;
      default: {
        const filter = parseFilter(last, value);
        const cond: Condition = { kind: 'filter', filter };
        lvl.conditions.push(cond);
        if (segments.length === 0 && filter.field.path.length === 0) {
          const op = filter.operation;
          parsed.rootEq.push({
            column: filter.field.name,
            value: 'value' in op && typeof op.value === 'string' ? op.value : '',
            negate: filter.negate,
            op: op.op,
          });
        }
      }
    }
  }
  return parsed;
}
