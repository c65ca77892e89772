/**
 * `stripe-webhook`: Stripe's events, the ONLY way a plan changes (docs/payments.md).
 * Every event is verified with `stripe.webhooks.constructEventAsync` (signature and a 5 minute
 * timestamp tolerance: a bad or stale one is a 400 and changes nothing). The subscription it
 * concerns is then retrieved from Stripe, so an event that arrives late or out of order applies
 * the subscription's current state, and `public.apply_stripe_event` (service role, security
 * definer) records the event id once (replays are no-ops), mirrors the subscription and sets the
 * plan of the customer's owner. Deployed with `--no-verify-jwt` (Stripe sends no JWT).
 */
import { errorResponse, json, withCors } from '../_shared/http.ts';
import { planOfPrice, stripeFor, webhookCrypto, type Stripe } from '../_shared/stripe.ts';

type Event = Awaited<ReturnType<Stripe['webhooks']['constructEventAsync']>>;
type Subscription = Awaited<ReturnType<Stripe['subscriptions']['retrieve']>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idOf = (v: unknown): string | null =>
  typeof v === 'string'
    ? v
    : v && typeof v === 'object' && 'id' in v
      ? String((v as { id: unknown }).id)
      : null;

/** The subscription an event concerns and the user it names, if any. */
function subscriptionRef(event: Event): {
  subscription: string | null;
  claimedUser: string | null;
} {
  const obj = event.data.object as unknown as Record<string, unknown>;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const paid = obj.payment_status === 'paid' || obj.payment_status === 'no_payment_required';
      const ref = typeof obj.client_reference_id === 'string' ? obj.client_reference_id : '';
      return {
        subscription: obj.mode === 'subscription' && paid ? idOf(obj.subscription) : null,
        claimedUser: UUID.test(ref) ? ref : null,
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
    case 'customer.subscription.paused':
    case 'customer.subscription.resumed':
      return { subscription: idOf(obj.id), claimedUser: null };
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
    case 'invoice.payment_failed': {
      const parent = obj.parent as { subscription_details?: { subscription?: unknown } } | null;
      return { subscription: idOf(parent?.subscription_details?.subscription), claimedUser: null };
    }
    default:
      return { subscription: null, claimedUser: null };
  }
}

function subscriptionState(sub: Subscription) {
  const item = sub.items.data[0];
  return {
    id: sub.id,
    customer: idOf(sub.customer),
    status: sub.status,
    plan_id: item ? (planOfPrice(item.price) ?? 'unknown') : 'unknown',
    price_id: item?.price.id ?? '',
    cancel_at_period_end: sub.cancel_at_period_end,
    current_period_start: item?.current_period_start ?? null,
    current_period_end: item?.current_period_end ?? null,
    canceled_at: sub.canceled_at,
    ended_at: sub.ended_at,
  };
}

export const handler = withCors(async (req, ctx) => {
  if (req.method !== 'POST') return errorResponse('Method not allowed', 405);
  const secret = ctx.env('STRIPE_WEBHOOK_SECRET');
  if (!secret) {
    console.error('[stripe-webhook] STRIPE_WEBHOOK_SECRET is not set');
    return errorResponse('Webhook secret is not configured.', 500);
  }
  const signature = req.headers.get('stripe-signature');
  if (!signature) return errorResponse('Missing Stripe-Signature header.', 400);
  const payload = await req.text();
  const stripe = stripeFor(ctx);
  let event: Event;
  try {
    event = await stripe.webhooks.constructEventAsync(
      payload,
      signature,
      secret,
      undefined,
      webhookCrypto,
    );
  } catch (err) {
    return errorResponse(`Webhook signature verification failed: ${(err as Error).message}`, 400);
  }

  const ref = subscriptionRef(event);
  let state: ReturnType<typeof subscriptionState> | null = null;
  if (ref.subscription) {
    try {
      state = subscriptionState(await stripe.subscriptions.retrieve(ref.subscription));
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status !== 404) throw err; // Stripe retries the event later
      state = null; // a subscription Stripe does not know: nothing to apply
    }
  }
  const { data, error } = await ctx.serviceClient().rpc('apply_stripe_event', {
    p_event_id: event.id,
    p_event_type: event.type,
    p_event_created: event.created,
    p_subscription: state,
    p_claimed_user: ref.claimedUser,
  });
  if (error) {
    console.error('[stripe-webhook]', event.id, error);
    return errorResponse('Failed to process the event.', 500);
  }
  return json({ received: true, outcome: data });
});
