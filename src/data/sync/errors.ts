/**
 * What to do with a failed request (docs/sync.md):
 * - retry: network failure (status 0), 408, 429, 5xx, and a missing RPC (404 PGRST202, a
 *   backend not migrated yet): back off 200 ms × 2^n + jitter, re-armed on online/focus/visible;
 * - auth: 401, or a JWT error: refresh the session once, then retry;
 * - reject: anything else the server refused (constraint, RLS 42501, validation, P0001).
 */
export type ErrorClass = 'retry' | 'auth' | 'reject';

export interface RemoteFailure {
  /** HTTP status; 0 when no response arrived. */
  status: number;
  code: string;
  message: string;
  /** The server's Retry-After (a 429 or 503), in ms: no retry before it. */
  retryAfterMs?: number;
}

export class RemoteError extends Error implements RemoteFailure {
  readonly status: number;
  readonly code: string;
  readonly retryAfterMs?: number;
  constructor(failure: RemoteFailure) {
    super(failure.message);
    this.name = 'RemoteError';
    this.status = failure.status;
    this.code = failure.code;
    if (failure.retryAfterMs !== undefined) this.retryAfterMs = failure.retryAfterMs;
  }
}

/** A Retry-After header (seconds, or an HTTP date) in ms from `now`; null when unreadable. */
export function parseRetryAfter(value: string, now: number = Date.now()): number | null {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

export function classify(failure: RemoteFailure): ErrorClass {
  const { status, code } = failure;
  if (status === 0 || status === 408 || status === 429 || status >= 500) return 'retry';
  if (status === 404 && (code === 'PGRST202' || code === 'PGRST205')) return 'retry';
  if (status === 401 || code === 'PGRST301' || code === 'PGRST303') return 'auth';
  return 'reject';
}

export const BACKOFF_BASE_MS = 200;
export const BACKOFF_MAX_MS = 60_000;

/**
 * The wait before the next try: 200 ms × 2^attempt (capped at 60 s) plus up to half of it again
 * as jitter, and never less than the server's Retry-After (itself capped at 60 s).
 */
export function retryDelay(
  attempt: number,
  failure: Pick<RemoteFailure, 'retryAfterMs'>,
  random: () => number = Math.random,
): number {
  const asked = Math.min(failure.retryAfterMs ?? 0, BACKOFF_MAX_MS);
  return Math.max(backoffDelay(attempt, random), asked);
}

/** 200 ms × 2^attempt (capped at 60 s) plus up to half of it again as jitter. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempt), BACKOFF_MAX_MS);
  return Math.round(base + random() * base * 0.5);
}
