/** The parsed shape of a PostgREST request's query string (before it meets the schema). */

export type JsonArrow = '->' | '->>';

export interface JsonStep {
  arrow: JsonArrow;
  /** Object key, or an array index when it is an integer literal. */
  key: string;
}

/** A column reference with an optional JSON path: `col`, `col->a->>b`. */
export interface Field {
  name: string;
  path: JsonStep[];
}

export const AGGREGATE_FUNCTIONS = ['count', 'sum', 'avg', 'min', 'max'] as const;

/** `col.sum()`, `count()`: aggregates.ts; `cast` applies to the result (`.sum()::text`). */
export interface Aggregate {
  fn: (typeof AGGREGATE_FUNCTIONS)[number];
  cast?: string;
}

export type SelectItem =
  | { kind: 'star' }
  | {
      kind: 'column';
      field: Field;
      alias?: string;
      cast?: string;
      /** `col.sum()`, `count()` (field `*`): see aggregates.ts. */
      aggregate?: Aggregate;
    }
  | {
      kind: 'embed';
      /** Table (or FK column / constraint) named in the select. */
      target: string;
      alias?: string;
      /** `!hint` parts other than inner/left: FK constraint or column names. */
      hints: string[];
      inner: boolean;
      /** `...table(cols)`: the embed's columns go into the parent object (to-one only). */
      spread: boolean;
      select: SelectItem[];
    };

export const SIMPLE_OPS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
] as const;
export const RANGE_OPS = ['cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'] as const;
export const FTS_OPS = ['fts', 'plfts', 'phfts', 'wfts'] as const;
export type SimpleOp = (typeof SIMPLE_OPS)[number];
export type RangeOp = (typeof RANGE_OPS)[number];
export type FtsOp = (typeof FTS_OPS)[number];

export type Operation =
  | { op: SimpleOp; value: string; quantifier?: 'any' | 'all' }
  | { op: RangeOp; value: string }
  | { op: FtsOp; value: string; config?: string }
  | { op: 'in'; values: string[] }
  | { op: 'is'; value: 'null' | 'not_null' | 'true' | 'false' | 'unknown' }
  | { op: 'isdistinct'; value: string };

export interface Filter {
  field: Field;
  negate: boolean;
  operation: Operation;
}

export type Condition =
  | { kind: 'filter'; filter: Filter }
  | { kind: 'logic'; op: 'and' | 'or'; negate: boolean; children: Condition[] };

export interface OrderTerm {
  /** `order=relation(col)`: a column of a to-one embed. */
  relation?: string;
  field: Field;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/** Conditions, order and paging that apply to one level (the root or an embed, by path). */
export interface LevelParams {
  conditions: Condition[];
  order?: OrderTerm[];
  limit?: number;
  offset?: number;
  /** `embed=is.null` / `embed=not.is.null` on child embeds, by embed name. */
  embedNullness: { name: string; isNull: boolean }[];
}
