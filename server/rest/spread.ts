/**
 * Spread embeds, `...table(cols)`, as PostgREST 13 answers them (issue 39):
 *
 * - to-one (many-to-one, one-to-one): the embed's columns go into the parent object as they are
 *   (types kept; `null` for each when there is no related row);
 * - to-many (one-to-many, many-to-many; PostgREST 13, where PostgREST 12 answered 400 `PGRST119`):
 *   each spread column becomes a JSON array of that column's values over the related rows, in the
 *   embed's order (`table.order=`), paged by `table.limit=`/`table.offset=`; `[]` when there are
 *   none. `!inner` keeps only parents with at least one related row.
 *
 * The parser marks an embed `spread` (parse-select.ts); the planner keeps it (plan.ts); SQL is
 * rendered here: `spreadKeys` lists the keys a spread contributes (sql-read.ts selects each, through
 * aggregates.ts's LevelGrouping: a to-one spread's hoisted aggregates, a to-many spread's arrays
 * grouped by their text) and `spreadJoin` builds its lateral join.
 */
import { quoteIdent } from './ident';
import type { EmbedPlan, ReadPlan } from './plan';

/** The keys a level contributes to its JSON object (spread embeds contribute their children's). */
export function spreadKeys(plan: ReadPlan): string[] {
  return plan.select.flatMap((item) =>
    item.kind !== 'embed'
      ? [item.key]
      : item.embed.spread
        ? spreadKeys(item.embed.plan)
        : [item.embed.key],
  );
}

/** Column of a to-many spread's lateral row counting the related rows (for `!inner`). */
const ROWS = quoteIdent('pgrst spread rows');

/**
 * The lateral join of a spread embed, given its rows' subquery `sub` (already filtered, ordered
 * and paged as the embed asks).
 */
export function spreadJoin(embed: EmbedPlan, sub: string): string {
  const e = quoteIdent(embed.lateral);
  const join = embed.inner ? 'INNER' : 'LEFT';
  if (embed.rel.toOne) return ` ${join} JOIN LATERAL (${sub}) AS ${e} ON TRUE`;
  const arrays = spreadKeys(embed.plan).map(
    (key) => `COALESCE(json_agg(_s.${quoteIdent(key)}), '[]'::json) AS ${quoteIdent(key)}`,
  );
  const select = [...arrays, `count(*) AS ${ROWS}`].join(', ');
  return ` ${join} JOIN LATERAL (SELECT ${select} FROM (${sub}) AS _s) AS ${e} ON ${embed.inner ? `${e}.${ROWS} > 0` : 'TRUE'}`;
}
