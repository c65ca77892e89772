/**
 * How values come back from both drivers, identically: exact types (int8, numeric) and
 * date/time types as Postgres text (no float, no JavaScript Date, no lost microseconds); json and
 * jsonb parsed; int2/int4/float/bool as JavaScript numbers and booleans. Arrays follow their
 * element type.
 */
export const RAW_TEXT_TYPE_OIDS = {
  int8: 20,
  numeric: 1700,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
  timetz: 1266,
} as const;

/** Array types of the raw-text element types above (for drivers that need them listed). */
export const RAW_TEXT_ARRAY_TYPE_OIDS = {
  int8: 1016,
  numeric: 1231,
  date: 1182,
  time: 1183,
  timestamp: 1115,
  timestamptz: 1185,
  interval: 1187,
  timetz: 1270,
} as const;

/** Session settings both drivers apply, so text output of timestamps is the same everywhere. */
export const SESSION_SETTINGS = { TimeZone: 'UTC', DateStyle: 'ISO' } as const;
