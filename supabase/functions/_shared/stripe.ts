/**
 * The official `stripe` library as every payment function uses it, on Deno and on Node alike
 * (fetch HTTP client, Web Crypto for webhook signatures). With STRIPE_SECRET_KEY from a Stripe
 * account it talks to Stripe; the embedded server without one sets STRIPE_API_URL to its local
 * payment sandbox (docs/payments.md), which the library reaches through its host, port and
 * protocol options: the same code path either way.
 */
import Stripe from 'stripe';
import type { FunctionContext } from './context.ts';
import { HttpError } from './http.ts';

export type PaidPlanId = 'basic' | 'premium';

/** The lookup keys of the monthly prices (create them so on a live Stripe account). */
export const PRICE_LOOKUP_KEYS: Readonly<Record<PaidPlanId, string>> = {
  basic: 'soundloft_basic_monthly',
  premium: 'soundloft_premium_monthly',
};

export function isPaidPlan(value: unknown): value is PaidPlanId {
  return value === 'basic' || value === 'premium';
}

/** The plan a price sells: its lookup key, else its `metadata.plan_id`. */
export function planOfPrice(price: {
  lookup_key: string | null;
  metadata: Record<string, string> | null;
}): PaidPlanId | null {
  for (const plan of Object.keys(PRICE_LOOKUP_KEYS) as PaidPlanId[]) {
    if (price.lookup_key === PRICE_LOOKUP_KEYS[plan]) return plan;
  }
  const fromMetadata = price.metadata?.plan_id;
  return isPaidPlan(fromMetadata) ? fromMetadata : null;
}

/** What the app shows instead of checkout when payments are off (docs/production.md). */
export const PAYMENTS_OFF_MESSAGE = 'Paid plans are not available on this server right now.';

/**
 * Payments are on when the server has a Stripe key and PAYMENTS is not `off`. The app asks
 * `payments-status`; checkout answers 503 with PAYMENTS_OFF_MESSAGE otherwise.
 */
export function paymentsEnabled(ctx: FunctionContext): boolean {
  const off = ctx.env('PAYMENTS')?.trim().toLowerCase() === 'off';
  return !off && Boolean(ctx.env('STRIPE_SECRET_KEY'));
}

const clients = new Map<string, Stripe>();

export function stripeFor(ctx: FunctionContext): Stripe {
  const key = ctx.env('STRIPE_SECRET_KEY');
  if (!key) throw new HttpError(503, 'Payments are not configured.');
  const api = ctx.env('STRIPE_API_URL') ?? '';
  const cacheKey = `${key} ${api}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const target = api ? new URL(api) : null;
    client = new Stripe(key, {
      httpClient: Stripe.createFetchHttpClient(),
      maxNetworkRetries: 2,
      appInfo: { name: 'Soundloft' },
      ...(target
        ? {
            host: target.hostname,
            port: Number(target.port) || (target.protocol === 'https:' ? 443 : 80),
            protocol: target.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
    clients.set(cacheKey, client);
  }
  return client;
}

/** Web Crypto: what constructEventAsync needs on Deno (and works on Node). */
export const webhookCrypto: ReturnType<typeof Stripe.createSubtleCryptoProvider> =
  Stripe.createSubtleCryptoProvider();

export { Stripe };
