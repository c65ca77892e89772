/**
 * A request body that never finished because the client went away (Node: `Error: aborted`,
 * ECONNRESET). Nobody reads the answer; it is the client's doing, not a server fault to log
 * (the slow-request attacks of tests/security/bad-requests.test.ts end this way).
 */
export function isClientAbort(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === 'ECONNRESET' && e.message === 'aborted';
}
