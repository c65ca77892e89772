/**
 * `cancel-subscription`: POST {userId} with the caller's JWT ('Downgrade to Free'). Asks Stripe
 * to cancel the caller's subscription at the end of the paid period (`cancel_at_period_end`);
 * the plan stays until Stripe's `customer.subscription.deleted` reaches stripe-webhook then.
 * Answers {success: true, cancelAt} (ISO time the paid period ends).
 */
import { HttpError, callerId, errorResponse, json, ownCaller, withCors } from '../_shared/http.ts';
import { readBody, userIdField, z } from '../_shared/body.ts';
import { stripeFor } from '../_shared/stripe.ts';
import { requireSecondFactor } from '../_shared/second-factor.ts';

const Body = z.strictObject({ userId: userIdField });

export const handler = withCors(async (req, ctx) => {
  if (req.method !== 'POST') return errorResponse('Method not allowed', 405);
  if (!callerId(req)) return errorResponse('Not authenticated', 401);
  await requireSecondFactor(req, ctx);
  const body = await readBody(req, Body);
  const caller = ownCaller(req, body);
  const { data: subs, error } = await ctx
    .serviceClient()
    .from('subscriptions')
    .select('id, cancel_at_period_end, current_period_end')
    .eq('user_id', caller)
    .in('status', ['active', 'trialing', 'past_due']);
  if (error) throw new HttpError(500, 'Failed to downgrade plan.');
  if (!subs?.length) return errorResponse('No active subscription to cancel.', 400);
  const stripe = stripeFor(ctx);
  let cancelAt: string | null = null;
  for (const sub of subs as {
    id: string;
    cancel_at_period_end: boolean;
    current_period_end: string | null;
  }[]) {
    const updated = sub.cancel_at_period_end
      ? await stripe.subscriptions.retrieve(sub.id)
      : await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    const end = updated.items.data[0]?.current_period_end;
    if (end) cancelAt = new Date(end * 1000).toISOString();
  }
  return json({ success: true, cancelAt });
});
