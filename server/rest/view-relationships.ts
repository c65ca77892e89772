/**
 * Relationships through views (issue 39), as PostgREST infers them
 * (`allViewsKeyDependencies` + `addViewM2OAndO2ORels` in its SchemaCache.hs): a view column that
 * is a plain reference to a table column carries that column's foreign keys. PostgREST reads the
 * view's rewrite rule (`pg_rewrite.ev_action`, a `pg_node_tree`): each entry of the top query's
 * target list names the column it comes from (`:resorigtbl`, `:resorigcol`; Postgres traces those
 * through subqueries and CTEs). A view over a view is followed down to the table.
 *
 * For a foreign key `S(cols) → D(fcols)`:
 * - a view V whose columns cover `S(cols)` gets `V → D` (many-to-one, or one-to-one as the key is);
 * - a view W covering `D(fcols)` gives `S → W`;
 * - both give `V → W`;
 * each with its inverse (one-to-many / one-to-one), under the foreign key's constraint name. A
 * base column exposed under two view columns gives one relationship per choice, as PostgREST.
 *
 * Hand-written because no library reads `pg_node_tree` text; the format is Postgres's
 * `outNode`/`pg_strtok` (src/backend/nodes/outfuncs.c, read.c): tokens split on whitespace and
 * `(){}`, a backslash escapes the next character, `<>` is NULL.
 */

export const VIEW_RULES_SQL = `
select r.ev_class::int8 as view, r.ev_action::text as action
from pg_rewrite r
join pg_class c on c.oid = r.ev_class join pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and c.relkind in ('v', 'm') and r.rulename = '_RETURN'`;

/** A foreign key by oids and attribute numbers, as the schema cache reads it. */
export interface ForeignKeyRef {
  constraint: string;
  rel: number;
  cols: number[];
  frel: number;
  fcols: number[];
  /** The referencing columns are unique too (one-to-one). */
  oneToOne: boolean;
}

type NodeValue = string | NodeValue[] | { node: string; fields: Map<string, NodeValue> };

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r') {
      i++;
    } else if (c === '(' || c === ')' || c === '{' || c === '}') {
      tokens.push(c);
      i++;
    } else {
      let token = '';
      while (i < text.length && !' \n\t\r(){}'.includes(text[i] ?? '')) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        token += text[i];
        i++;
      }
      tokens.push(token);
    }
  }
  return tokens;
}

/** Parses `pg_node_tree` text into nodes (`{TYPE :field value …}`), lists and atoms. */
export function parseNodeTree(text: string): NodeValue {
  const tokens = tokenize(text);
  let pos = 0;
  const value = (): NodeValue => {
    const t = tokens[pos++] ?? '';
    if (t === '(') {
      const list: NodeValue[] = [];
      while (pos < tokens.length && tokens[pos] !== ')') list.push(value());
      pos++;
      return list;
    }
    if (t === '{') {
      const node = tokens[pos++] ?? '';
      const fields = new Map<string, NodeValue>();
      while (pos < tokens.length && tokens[pos] !== '}') {
        const key = tokens[pos++] ?? '';
        const parts: NodeValue[] = [];
        while (pos < tokens.length && tokens[pos] !== '}' && !tokens[pos]?.startsWith(':'))
          parts.push(value());
        fields.set(key, parts.length === 1 ? (parts[0] ?? '') : parts);
      }
      pos++;
      return { node, fields };
    }
    return t;
  };
  return value();
}

/** View column number → the table (or view) column it is, from the top query's target list. */
export function viewColumnOrigins(action: string): Map<number, { rel: number; col: number }> {
  const origins = new Map<number, { rel: number; col: number }>();
  const tree = parseNodeTree(action);
  const query = Array.isArray(tree) ? tree[0] : tree;
  if (!query || typeof query !== 'object' || Array.isArray(query)) return origins;
  const targets = query.fields.get(':targetList');
  if (!Array.isArray(targets)) return origins;
  for (const entry of targets) {
    if (typeof entry !== 'object' || Array.isArray(entry) || entry.node !== 'TARGETENTRY') continue;
    const resno = Number(entry.fields.get(':resno'));
    const rel = Number(entry.fields.get(':resorigtbl'));
    const col = Number(entry.fields.get(':resorigcol'));
    if (entry.fields.get(':resjunk') === 'true' || !rel || !col) continue;
    origins.set(resno, { rel, col });
  }
  return origins;
}

const MAX_CHOICES = 16;

/** One relationship through a view: `from(cols) → to(cols)` under a foreign key (oids, names). */
export interface ViewLink {
  fk: ForeignKeyRef;
  from: { rel: number; cols: string[] };
  to: { rel: number; cols: string[] };
}

/**
 * The many-to-one links through views (the schema cache adds each with its inverse). `attnames`
 * gives column names by relation oid and attribute number.
 */
export function viewLinks(
  rules: Record<string, unknown>[],
  attnames: Map<number, Map<number, string>>,
  fks: ForeignKeyRef[],
): ViewLink[] {
  const direct = new Map<number, Map<number, { rel: number; col: number }>>();
  for (const r of rules) direct.set(Number(r.view), viewColumnOrigins(String(r.action)));
  // base "rel:col" → view oid → view column names exposing it (views over views followed down).
  const exposed = new Map<string, Map<number, string[]>>();
  for (const [view, origins] of direct) {
    for (const [viewCol, origin] of origins) {
      let at = origin;
      for (let depth = 0; depth < 32; depth++) {
        const next = direct.get(at.rel)?.get(at.col);
        if (!next) break;
        at = next;
      }
      const name = attnames.get(view)?.get(viewCol);
      if (!name) continue;
      const key = `${at.rel}:${at.col}`;
      const byView = exposed.get(key) ?? new Map<number, string[]>();
      byView.set(view, [...(byView.get(view) ?? []), name]);
      exposed.set(key, byView);
    }
  }
  // Views covering all these columns of `rel`, each with every choice of its columns.
  const covering = (rel: number, cols: number[]): { rel: number; cols: string[] }[] => {
    const first = exposed.get(`${rel}:${cols[0]}`);
    if (!first) return [];
    const found: { rel: number; cols: string[] }[] = [];
    for (const view of first.keys()) {
      let choices: string[][] = [[]];
      for (const col of cols) {
        const names = exposed.get(`${rel}:${col}`)?.get(view) ?? [];
        choices = choices.flatMap((c) => names.map((n) => [...c, n])).slice(0, MAX_CHOICES);
      }
      for (const c of choices) if (c.length === cols.length) found.push({ rel: view, cols: c });
    }
    return found;
  };
  const names = (rel: number, nums: number[]) => nums.map((n) => attnames.get(rel)?.get(n) ?? '');
  const links: ViewLink[] = [];
  for (const fk of fks) {
    const srcViews = covering(fk.rel, fk.cols);
    const dstViews = covering(fk.frel, fk.fcols);
    const src = { rel: fk.rel, cols: names(fk.rel, fk.cols) };
    const dst = { rel: fk.frel, cols: names(fk.frel, fk.fcols) };
    for (const v of srcViews) links.push({ fk, from: v, to: dst });
    for (const w of dstViews) links.push({ fk, from: src, to: w });
    for (const v of srcViews) for (const w of dstViews) links.push({ fk, from: v, to: w });
  }
  return links;
}
