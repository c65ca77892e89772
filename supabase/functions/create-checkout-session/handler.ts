/**
 * `create-checkout-session`: POST {planId, userId, email, promoCode} with the caller's JWT (spec
 * §7) → {id, url}. A free user gets a Stripe Checkout Session (subscription mode) for the plan's
 * monthly price, with the promotion code applied when Stripe accepts it ('Invalid coupon'
 * otherwise, which the page shows as 'Invalid promo code.'); the app redirects to `url`. A
 * paid user changing between Basic and Premium gets their subscription's price changed with
 * Stripe's proration, invoiced now; `url` is then the payment-approved page. Nothing here
 * changes the plan: stripe-webhook does, when Stripe reports the payment.
 */
import { HttpError, callerId, errorResponse, json, ownCaller, withCors } from '../_shared/http.ts';
import { readBody, userIdField, z } from '../_shared/body.ts';
import { requireSecondFactor } from '../_shared/second-factor.ts';
import {
  PAYMENTS_OFF_MESSAGE,
  PRICE_LOOKUP_KEYS,
  paymentsEnabled,
  stripeFor,
} from '../_shared/stripe.ts';

const Body = z.strictObject({
  planId: z.enum(['basic', 'premium'], { error: 'Choose the Basic or Premium plan.' }),
  userId: userIdField,
  email: z.email({ error: 'email must be an e-mail address.' }).max(254).nullish(),
  promoCode: z.string().max(100, { error: 'Invalid coupon' }).nullish(),
});

const INVALID_COUPON = 'Invalid coupon';

interface StripeLikeError {
  type?: string;
  code?: string;
  param?: string;
  message?: string;
}

function isDiscountError(err: unknown): boolean {
  const e = err as StripeLikeError;
  return (
    e?.type === 'StripeInvalidRequestError' &&
    ((e.param ?? '').startsWith('discounts') || e.code === 'coupon_expired')
  );
}

/** Where Stripe sends the browser back: SITE_URL, else the app's origin, else this server. */
function siteOrigin(req: Request, env: (name: string) => string | undefined): string {
  const configured = env('SITE_URL');
  if (configured) return configured.replace(/\/+$/, '');
  const origin = req.headers.get('origin');
  if (origin && /^https?:\/\/[^/\s]+$/.test(origin)) return origin;
  return (env('SUPABASE_URL') ?? '').replace(/\/+$/, '');
}

export const handler = withCors(async (req, ctx) => {
  if (req.method !== 'POST') return errorResponse('Method not allowed', 405);
  if (!callerId(req)) return errorResponse('Not authenticated', 401);
  if (!paymentsEnabled(ctx)) return errorResponse(PAYMENTS_OFF_MESSAGE, 503);
  await requireSecondFactor(req, ctx);
  const body = await readBody(req, Body);
  const caller = ownCaller(req, body);
  const planId = body.planId;
  const promoCode = body.promoCode?.trim() ?? '';

  const service = ctx.serviceClient();
  const { data: profile, error: profileError } = await service
    .from('profiles')
    .select('email, stripe_customer_id')
    .eq('id', caller)
    .maybeSingle();
  if (profileError) throw new HttpError(500, 'Failed to process subscription.');
  if (!profile) return errorResponse('Not authenticated', 401);
  const { data: active, error: subsError } = await service
    .from('subscriptions')
    .select('id, plan_id, cancel_at_period_end')
    .eq('user_id', caller)
    .in('status', ['active', 'trialing', 'past_due']);
  if (subsError) throw new HttpError(500, 'Failed to process subscription.');

  const stripe = stripeFor(ctx);
  const prices = await stripe.prices.list({
    lookup_keys: [PRICE_LOOKUP_KEYS[planId]],
    active: true,
    limit: 1,
  });
  const price = prices.data[0];
  if (!price) {
    console.error(
      `[create-checkout-session] no active price with lookup key ${PRICE_LOOKUP_KEYS[planId]}`,
    );
    return errorResponse('This plan is not available right now.', 503);
  }
  const origin = siteOrigin(req, ctx.env);

  // A paid user: change the existing subscription (prorated), or keep it if it is this plan.
  const current = (active ?? []) as {
    id: string;
    plan_id: string;
    cancel_at_period_end: boolean;
  }[];
  const existing = current[0];
  if (existing) {
    const sub = await stripe.subscriptions.retrieve(existing.id);
    const item = sub.items.data[0];
    if (!item) throw new HttpError(500, 'Failed to process subscription.');
    if (item.price.id === price.id && !sub.cancel_at_period_end) {
      return errorResponse('You are already on this plan.', 400);
    }
    const updated = await stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, price: price.id }],
      proration_behavior: 'always_invoice',
      cancel_at_period_end: false,
      metadata: { user_id: caller, plan_id: planId },
    });
    return json({ id: updated.id, url: `${origin}/payment-approved?plan=${planId}` });
  }

  let customer = (profile as { stripe_customer_id: string | null }).stripe_customer_id;
  if (!customer) {
    const email = (profile as { email: string | null }).email ?? body.email ?? undefined;
    const created = await stripe.customers.create({ email, metadata: { user_id: caller } });
    const { data: linked, error: linkError } = await service.rpc('link_stripe_customer', {
      p_user: caller,
      p_customer: created.id,
    });
    if (linkError || typeof linked !== 'string')
      throw new HttpError(500, 'Failed to process subscription.');
    customer = linked;
  }

  let discounts: { promotion_code: string }[] | undefined;
  if (promoCode) {
    const found = await stripe.promotionCodes.list({ code: promoCode, active: true, limit: 1 });
    const promo = found.data[0];
    if (!promo) return errorResponse(INVALID_COUPON, 400);
    discounts = [{ promotion_code: promo.id }];
  }
  try {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: caller,
      line_items: [{ price: price.id, quantity: 1 }],
      ...(discounts ? { discounts } : {}),
      success_url: `${origin}/payment-approved?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/payment-failed`,
      metadata: { user_id: caller, plan_id: planId },
      subscription_data: { metadata: { user_id: caller, plan_id: planId } },
    });
    return json({ id: session.id, url: session.url });
  } catch (err) {
    if (isDiscountError(err)) return errorResponse(INVALID_COUPON, 400);
    throw err;
  }
});
