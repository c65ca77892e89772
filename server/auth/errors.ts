/**
 * GoTrue's error responses. Two kinds, as in supabase/auth `internal/api/errors.go`:
 * - `AuthHttpError` (GoTrue's HTTPError): with `X-Supabase-Api-Version: 2024-01-01` (what
 *   supabase-js sends) the body is `{code, message}` and the header is echoed back; without it the
 *   legacy body `{code: <status>, error_code, msg}`.
 * - `OAuthError`: always 400 `{error, error_description}` (some /token and /verify failures).
 * A weak password adds `weak_password: {reasons}`.
 */
import type { Context } from 'hono';

export const API_VERSION_HEADER = 'X-Supabase-Api-Version';
export const API_VERSION_2024_01_01 = '2024-01-01';

export class AuthHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AuthHttpError';
  }
}

export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description || error);
    this.name = 'OAuthError';
  }
}

export const badRequest = (code: string, message: string) => new AuthHttpError(400, code, message);
export const unauthorized = (code: string, message: string) =>
  new AuthHttpError(401, code, message);
export const forbidden = (code: string, message: string) => new AuthHttpError(403, code, message);
export const notFound = (code: string, message: string) => new AuthHttpError(404, code, message);
export const unprocessable = (code: string, message: string) =>
  new AuthHttpError(422, code, message);
export const tooManyRequests = (code: string, message: string, retryAfter?: number) =>
  new AuthHttpError(
    429,
    code,
    message,
    {},
    retryAfter ? { 'Retry-After': String(retryAfter) } : {},
  );
export const validationFailed = (message: string) =>
  new AuthHttpError(400, 'validation_failed', message);

export function weakPassword(minLength: number): AuthHttpError {
  return new AuthHttpError(
    422,
    'weak_password',
    `Password should be at least ${minLength} characters.`,
    { weak_password: { reasons: ['length'] } },
  );
}

/** The request asked for the 2024-01-01 error shape (any later date counts too). */
export function wantsVersion20240101(header: string | undefined): boolean {
  if (!header) return false;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(header.trim());
  if (!m) return false;
  return `${m[1]}-${m[2]}-${m[3]}` >= API_VERSION_2024_01_01;
}

/** GoTrue's body for an error, in the shape the request asked for. */
export function errorBody(
  err: AuthHttpError | OAuthError,
  versioned: boolean,
): Record<string, unknown> {
  if (err instanceof OAuthError) {
    return err.description
      ? { error: err.error, error_description: err.description }
      : { error: err.error };
  }
  if (versioned) return { code: err.code, message: err.message, ...err.extra };
  return { code: err.status, error_code: err.code, msg: err.message, ...err.extra };
}

/** Hono `onError`: every thrown error becomes GoTrue's JSON; unknown errors are 500s, logged. */
export function handleAuthError(err: unknown, c: Context): Response {
  const versioned = wantsVersion20240101(c.req.header(API_VERSION_HEADER));
  const headers: Record<string, string> = {};
  if (versioned) headers[API_VERSION_HEADER] = API_VERSION_2024_01_01;
  if (err instanceof AuthHttpError || err instanceof OAuthError) {
    const status = err instanceof OAuthError ? 400 : err.status;
    const own = err instanceof AuthHttpError ? err.headers : {};
    return new Response(JSON.stringify(errorBody(err, versioned)), {
      status,
      headers: { 'Content-Type': 'application/json', ...own, ...headers },
    });
  }
  // A value the database refused as data (SQLSTATE class 22: a NUL byte, a malformed uuid, a
  // string too long, a number out of range) came from the client: a 400, never a 500.
  const sqlState = (err as { code?: unknown } | null)?.code;
  if (typeof sqlState === 'string' && /^22[0-9A-Z]{3}$/.test(sqlState)) {
    const invalid = validationFailed('Invalid input: a value is malformed or out of range');
    return new Response(JSON.stringify(errorBody(invalid, versioned)), {
      status: invalid.status,
      headers: { 'Content-Type': 'application/json', ...headers },
    });
  }
  console.error('auth: unexpected failure', err);
  const unexpected = new AuthHttpError(
    500,
    'unexpected_failure',
    'Unexpected failure, please check server logs for more information',
  );
  return new Response(JSON.stringify(errorBody(unexpected, versioned)), {
    status: 500,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}
