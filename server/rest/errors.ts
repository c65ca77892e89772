/** PostgREST's error JSON (`{code, message, details, hint}`) and its SQLSTATE → HTTP mapping. */
import { isClientAbort } from '../lib/client-abort';

export interface ErrorBody {
  code: string;
  message: string;
  details: unknown;
  hint: string | null;
}

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

/** PGRST100: a query string parameter that does not parse. */
export function parseError(what: string, input: string, detail: string, column = 1): RestError {
  return new RestError(
    400,
    'PGRST100',
    `"failed to parse ${what} (${input})" (line 1, column ${column})`,
    detail,
  );
}

export function tableNotFound(name: string, suggestion?: string, schema = 'public'): RestError {
  return new RestError(
    404,
    'PGRST205',
    `Could not find the table '${schema}.${name}' in the schema cache`,
    null,
    suggestion ? `Perhaps you meant the table '${schema}.${suggestion}'` : null,
  );
}

export function columnNotFound(table: string, column: string): RestError {
  return new RestError(400, '42703', `column ${table}.${column} does not exist`);
}

export function payloadColumnNotFound(table: string, column: string): RestError {
  return new RestError(
    400,
    'PGRST204',
    `Could not find the '${column}' column of '${table}' in the schema cache`,
  );
}

export function invalidBody(message = 'Empty or invalid json'): RestError {
  return new RestError(400, 'PGRST102', message);
}

/** HTTP status for a SQLSTATE, exactly as PostgREST's table (docs: references/errors). */
export function statusForSqlState(code: string, authenticated: boolean): number {
  if (/^PT\d{3}$/.test(code)) return Number(code.slice(2));
  switch (code) {
    case '23503':
    case '23505':
      return 409;
    case '25006':
      return 405;
    case '53400':
      return 500;
    case 'P0001':
      return 400;
    case '42883':
    case '42P01':
      return 404;
    case '42P17':
      return 500;
    case '42501':
      return authenticated ? 403 : 401;
  }
  const cls = code.slice(0, 2);
  if (cls === '08') return 503;
  if (cls === '53') return 503;
  if (['0L', '0P', '28'].includes(cls)) return 403;
  if (
    [
      '09',
      '25',
      '2D',
      '38',
      '39',
      '3B',
      '40',
      '54',
      '55',
      '57',
      '58',
      'F0',
      'HV',
      'P0',
      'XX',
    ].includes(cls)
  )
    return 500;
  return 400;
}

interface PgLikeError {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  hint?: unknown;
}

function isPgError(err: unknown): err is PgLikeError & { code: string } {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as PgLikeError).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((err as { code: string }).code)
  );
}

/** Turns anything thrown while serving a request into PostgREST's error response. */
export function toRestError(err: unknown, authenticated: boolean): RestError {
  if (err instanceof RestError) return err;
  if (isPgError(err)) {
    const status = statusForSqlState(err.code, authenticated);
    const headers: Record<string, string> = {};
    if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
    return new RestError(
      status,
      err.code,
      String(err.message ?? ''),
      typeof err.detail === 'string' ? err.detail : null,
      typeof err.hint === 'string' ? err.hint : null,
      headers,
    );
  }
  if (isClientAbort(err))
    return new RestError(400, 'PGRST102', 'The request body was not completed');
  console.error('[rest] unexpected error', err);
  return new RestError(500, 'PGRSTX00', 'Internal server error');
}
