import { RestError } from './errors';
import type { Preferences } from './headers';

/**
 * `Prefer: max-affected=N` with `handling=strict` (PostgREST 13): a PATCH, DELETE or RPC call that
 * affects more than N rows fails and its transaction rolls back (the caller throws inside it).
 * Without handling=strict the preference is accepted and ignored, as PostgREST does.
 */
export function strictMaxAffected(prefs: Preferences): number | undefined {
  return prefs.handling === 'strict' ? prefs.maxAffected : undefined;
}

/** PGRST124 when `affected` exceeds the strict max-affected preference. */
export function checkMaxAffected(prefs: Preferences, affected: number): void {
  const max = strictMaxAffected(prefs);
  if (max !== undefined && affected > max)
    throw new RestError(
      400,
      'PGRST124',
      'Query result exceeds max-affected preference constraint',
      `The query affects ${affected} rows`,
    );
}

/** PGRST128: a function that returns one value (not SETOF or TABLE) cannot take it. */
export function refuseMaxAffectedOnSingle(prefs: Preferences, returnsSet: boolean): void {
  if (strictMaxAffected(prefs) !== undefined && !returnsSet)
    throw new RestError(
      400,
      'PGRST128',
      'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
    );
}
