import type { Preferences } from './headers';

/**
 * PostgREST's `db-tx-end`: how every request's transaction ends, and whether a request may
 * choose with `Prefer: tx=commit|rollback`. Soundloft's default is PostgREST's: `commit`.
 */
export const TX_END_VALUES = [
  'commit',
  'commit-allow-override',
  'rollback',
  'rollback-allow-override',
] as const;

export type TxEnd = (typeof TX_END_VALUES)[number];

/** REST_DB_TX_END's value (unset or empty: `commit`); throws on anything else. */
export function parseTxEnd(value: string | undefined): TxEnd {
  const v = (value ?? '').trim();
  if (v === '') return 'commit';
  if ((TX_END_VALUES as readonly string[]).includes(v)) return v as TxEnd;
  throw new Error(`REST_DB_TX_END may be one of ${TX_END_VALUES.join(', ')}; got "${value}"`);
}

/** Whether `Prefer: tx=` is honoured (PostgREST's `*-allow-override`). */
export function allowsTxOverride(txEnd: TxEnd): boolean {
  return txEnd.endsWith('-allow-override');
}

/**
 * Whether this request's transaction ends in ROLLBACK: the request's `tx=` where allowed
 * (parsePrefer drops it otherwise), else the server's setting (PostgREST's optionalRollback).
 */
export function endsInRollback(txEnd: TxEnd, prefs: Pick<Preferences, 'tx'>): boolean {
  if (prefs.tx) return prefs.tx === 'rollback';
  return txEnd.startsWith('rollback');
}
