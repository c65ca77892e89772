export { startAccountJobs, type AccountJobs, type AccountJobsOptions } from './jobs';
export type { SubscriptionCanceller } from './delete-account';
import type { SubscriptionCanceller } from './delete-account';
import { stripeFor } from '../../supabase/functions/_shared/stripe.ts';

/**
 * Cancels through the payments module's Stripe client (supabase/functions/_shared/stripe.ts):
 * real Stripe with STRIPE_SECRET_KEY, else the local sandbox at `apiUrl`. Cancelled at once
 * (a deleted account keeps no paid period); an already cancelled subscription is done.
 */
export function stripeCanceller(env: Record<string, string | undefined>): SubscriptionCanceller {
  const stripe = stripeFor({
    env: (name) => env[name],
    serviceClient: () => {
      throw new Error('not used');
    },
    userClient: () => {
      throw new Error('not used');
    },
  });
  return async (id) => {
    const sub = await stripe.subscriptions.retrieve(id);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') return;
    await stripe.subscriptions.cancel(id);
  };
}
