/**
 * Functions that act for the caller with the service role (past RLS) ask PostgreSQL first whether
 * the caller has answered their second factor (docs/account.md, "Two-factor in the database"):
 * `mfa_satisfied()` run as the caller. An aal1 token of an account with a verified factor gets
 * 403; anon, an account without a factor and an aal2 token pass. Functions that only call the
 * database as the caller (userClient) need nothing: RLS and the definer functions refuse there.
 */
import type { FunctionContext } from './context.ts';
import { HttpError } from './http.ts';

export const SECOND_FACTOR_OWED = 'Enter the code from your authenticator app first.';

/** Throws HttpError 403 when the caller still owes their second factor. */
export async function requireSecondFactor(req: Request, ctx: FunctionContext): Promise<void> {
  const { data, error } = await ctx.userClient(req).rpc('mfa_satisfied');
  if (error) throw new Error(`mfa_satisfied: ${error.message}`);
  if (data !== true) throw new HttpError(403, SECOND_FACTOR_OWED);
}
