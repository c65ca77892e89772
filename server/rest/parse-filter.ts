import {
  FTS_OPS,
  RANGE_OPS,
  SIMPLE_OPS,
  type Condition,
  type Filter,
  type FtsOp,
  type Operation,
  type OrderTerm,
  type RangeOp,
  type SimpleOp,
} from './ast';
import { Cursor, splitTopLevel, unquote } from './cursor';
import { parseError } from './errors';

const IS_VALUES = ['null', 'not_null', 'true', 'false', 'unknown'] as const;

/**
 * `[not.]op[(modifier)].value` as found on the right of `col=`. Inside a logic tree
 * (`inTree`), double-quoted values are unquoted as PostgREST does.
 */
export function parseOperation(
  text: string,
  source: string,
  inTree = false,
): { negate: boolean; operation: Operation } {
  const what = inTree ? 'logic tree' : 'filter';
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const m = /^([a-z]+)(?:\(([^)]*)\))?\./.exec(rest);
  if (!m)
    throw parseError(what, source, 'unexpected end of input expecting operator (eq, gt, ...)');
  const op = m[1] ?? '';
  const modifier = m[2];
  const raw = rest.slice(m[0].length);
  const value = inTree ? unquote(raw) : raw;
  const fail = (detail: string) => parseError(what, source, detail);

  if ((SIMPLE_OPS as readonly string[]).includes(op)) {
    if (modifier !== undefined && modifier !== 'any' && modifier !== 'all')
      throw fail(`unknown modifier "${modifier}" expecting "any" or "all"`);
    const pattern = op === 'like' || op === 'ilike' ? value.replaceAll('*', '%') : value;
    return {
      negate,
      operation: {
        op: op as SimpleOp,
        value: pattern,
        quantifier: modifier as 'any' | 'all' | undefined,
      },
    };
  }
  if (modifier !== undefined && !(FTS_OPS as readonly string[]).includes(op))
    throw fail(`unexpected "(" after operator ${op}`);
  if ((RANGE_OPS as readonly string[]).includes(op))
    return { negate, operation: { op: op as RangeOp, value } };
  if ((FTS_OPS as readonly string[]).includes(op)) {
    if (modifier !== undefined && !/^[A-Za-z0-9_]+$/.test(modifier))
      throw fail('invalid text search configuration');
    return { negate, operation: { op: op as FtsOp, value, config: modifier } };
  }
  switch (op) {
    case 'in': {
      if (!raw.startsWith('(') || !raw.endsWith(')'))
        throw fail('unexpected value expecting "(" list ")"');
      const body = raw.slice(1, -1);
      const values = body === '' ? [] : splitTopLevel(body, what, source).map((v) => unquote(v));
      return { negate, operation: { op: 'in', values } };
    }
    case 'is': {
      const v = value.toLowerCase();
      if (!(IS_VALUES as readonly string[]).includes(v))
        throw fail(`unexpected "${value}" expecting null, not_null, true, false or unknown`);
      return { negate, operation: { op: 'is', value: v as (typeof IS_VALUES)[number] } };
    }
    case 'isdistinct':
      return { negate, operation: { op: 'isdistinct', value } };
    default:
      throw fail(`unknown operator "${op}"`);
  }
}

/** `col=op.value` → one filter. */
export function parseFilter(fieldText: string, value: string): Filter {
  const cur = new Cursor(fieldText, 'filter');
  const field = cur.field();
  if (!cur.done) throw cur.fail('expecting operator');
  return { field, ...parseOperation(value, value) };
}

const MAX_TREE_DEPTH = 16;

/** `or=(a.eq.1,and(b.gt.2,not.c.is.null),not.or(...))` (the value, parentheses included). */
export function parseLogicTree(
  op: 'and' | 'or',
  negate: boolean,
  value: string,
  source = value,
  depth = 0,
): Condition {
  if (depth > MAX_TREE_DEPTH) throw parseError('logic tree', source, 'nested too deeply');
  if (!value.startsWith('(') || !value.endsWith(')'))
    throw parseError('logic tree', source, 'unexpected value expecting "("');
  const inner = value.slice(1, -1);
  if (inner.trim() === '')
    throw parseError('logic tree', source, 'unexpected ")" expecting a condition');
  const children = splitTopLevel(inner, 'logic tree', source).map((part) =>
    parseTreeItem(part, source, depth),
  );
  return { kind: 'logic', op, negate, children };
}

function parseTreeItem(part: string, source: string, depth: number): Condition {
  const nested = /^(not\.)?(and|or)\(/.exec(part);
  if (nested) {
    const body = part.slice(nested[0].length - 1);
    return parseLogicTree(nested[2] as 'and' | 'or', Boolean(nested[1]), body, source, depth + 1);
  }
  const cur = new Cursor(part, 'logic tree');
  const field = cur.field();
  if (!cur.eat('.'))
    throw parseError(
      'logic tree',
      source,
      `unexpected "${cur.peek() || 'end of input'}" expecting "."`,
    );
  const { negate, operation } = parseOperation(part.slice(cur.pos), source, true);
  return { kind: 'filter', filter: { field, negate, operation } };
}

/** `order=a.desc.nullslast,b->>c.asc,d` */
export function parseOrder(value: string): OrderTerm[] {
  if (value.trim() === '') return [];
  return splitTopLevel(value, 'order', value).map((term) => {
    const cur = new Cursor(term, 'order');
    let field = cur.field();
    let relation: string | undefined;
    if (field.path.length === 0 && cur.eat('(')) {
      relation = field.name;
      field = cur.field();
      if (!cur.eat(')'))
        throw parseError(
          'order',
          value,
          `unexpected "${cur.peek() || 'end of input'}" expecting ")"`,
        );
    }
    const result: OrderTerm = relation === undefined ? { field } : { relation, field };
    while (cur.eat('.')) {
      const word = cur.name();
      if (word === 'asc' || word === 'desc') result.direction = word;
      else if (word === 'nullsfirst') result.nulls = 'first';
      else if (word === 'nullslast') result.nulls = 'last';
      else
        throw parseError(
          'order',
          value,
          `unexpected "${word}" expecting asc, desc, nullsfirst or nullslast`,
        );
    }
    if (!cur.done)
      throw parseError('order', value, `unexpected "${cur.peek()}" expecting "." or ","`);
    return result;
  });
}

export function parseNonNegativeInt(what: 'limit' | 'offset', value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw parseError(what, value, 'expecting a non-negative integer');
  return Number(value);
}
