/**
 * `delete-account`: POST {password} with the caller's JWT (Settings › Privacy, docs/privacy-rights.md).
 * Checks that it is the account's owner at the keyboard: the current password (verified by the
 * auth server's own password grant, whose session is signed out at once), or no password when
 * the session is AAL2 (two-factor). Then schedules the deletion for the end of the 14-day grace
 * period through `schedule_account_deletion` (service role only), which refuses while the
 * balance can still be withdrawn or a withdrawal is pending. Answers {scheduledFor} (ISO time).
 */
import { readBody, rpcErrorStatus, z } from '../_shared/body.ts';
import { callerClaims, callerId, errorResponse, json, withCors } from '../_shared/http.ts';
import { requireSecondFactor } from '../_shared/second-factor.ts';

const Body = z.strictObject({
  password: z.string({ error: 'Enter your password.' }).max(200).optional(),
});

export const WRONG_PASSWORD = 'That password is not right.';

export const handler = withCors(async (req, ctx) => {
  if (req.method !== 'POST') return errorResponse('Method not allowed', 405);
  const caller = callerId(req);
  if (!caller) return errorResponse('Not authenticated', 401);
  // An account with a factor proves itself with the code (aal2), not with the password alone.
  await requireSecondFactor(req, ctx);
  const body = await readBody(req, Body);
  const service = ctx.serviceClient();
  if (callerClaims(req)?.aal !== 'aal2') {
    if (!body.password) return errorResponse('Enter your password.', 400);
    const { data: found, error: lookup } = await service.auth.admin.getUserById(caller);
    if (lookup || !found.user.email) return errorResponse('Not authenticated', 401);
    // An anon client (no Authorization header): the password grant, as a sign-in would.
    const anon = ctx.userClient(new Request(req.url));
    const { data, error } = await anon.auth.signInWithPassword({
      email: found.user.email,
      password: body.password,
    });
    if (error || data.user?.id !== caller) return errorResponse(WRONG_PASSWORD, 400);
    await anon.auth.signOut({ scope: 'local' }).catch(() => undefined);
  }
  const { data, error } = await service.rpc('schedule_account_deletion', { p_user: caller });
  if (error) return errorResponse(error.message, rpcErrorStatus(error.code));
  const row = data as { run_after: string } | null;
  return json({ scheduledFor: row?.run_after ?? null });
});
