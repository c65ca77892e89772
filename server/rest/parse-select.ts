import { parseAggregateSuffix, parseBareCount, parseCast, WHOLE_ROW } from './aggregates';
import type { SelectItem } from './ast';
import { Cursor } from './cursor';

/**
 * `select=` grammar: `*`, `col`, `alias:col`, `col::type`, `col->a->>b`, and embeds
 * `alias:table!hint!inner(select)` nested to any depth.
 */
export function parseSelect(input: string): SelectItem[] {
  const cur = new Cursor(input, 'select parameter');
  const items = parseList(cur, 0);
  if (!cur.done) throw cur.fail('expecting "," or end of input');
  return items;
}

const MAX_DEPTH = 16;

function parseList(cur: Cursor, depth: number): SelectItem[] {
  if (depth > MAX_DEPTH) throw cur.fail('(embedding nested too deeply)');
  const items: SelectItem[] = [];
  // An empty list is allowed inside an embed: `table()` selects nothing (used with !inner).
  if (depth > 0 && cur.peek() === ')') return items;
  if (depth === 0 && cur.done) return items;
  items.push(parseItem(cur, depth));
  while (cur.eat(',')) items.push(parseItem(cur, depth));
  return items;
}

function parseItem(cur: Cursor, depth: number): SelectItem {
  if (cur.eat('*')) return { kind: 'star' };
  const spread = cur.eat('...');
  const start = cur.pos;
  let alias: string | undefined;
  const first = cur.name();
  if (cur.peek() === ':' && cur.peek(1) !== ':') {
    cur.pos++;
    alias = first;
  } else {
    cur.pos = start;
  }
  if (spread && alias !== undefined) throw cur.fail('(a spread embed takes no alias)');
  const count = spread ? undefined : parseBareCount(cur);
  if (count)
    return { kind: 'column', field: { name: WHOLE_ROW, path: [] }, alias, aggregate: count };
  const field = cur.field();
  if (field.path.length === 0 && (cur.peek() === '!' || cur.peek() === '(')) {
    const hints: string[] = [];
    let inner = false;
    while (cur.eat('!')) {
      const hint = cur.name();
      if (hint === 'inner') inner = true;
      else if (hint !== 'left') hints.push(hint);
    }
    cur.expect('(');
    const select = parseList(cur, depth + 1);
    cur.expect(')');
    return { kind: 'embed', target: field.name, alias, hints, inner, spread, select };
  }
  if (spread) throw cur.fail('expecting "(" after a spread embed');
  const cast = parseCast(cur);
  const aggregate = parseAggregateSuffix(cur);
  return { kind: 'column', field, alias, cast, ...(aggregate && { aggregate }) };
}
