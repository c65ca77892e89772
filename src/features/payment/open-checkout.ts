/**
 * Sends the browser to the Checkout Session's hosted page. With real Stripe
 * (VITE_STRIPE_PUBLISHABLE_KEY) Stripe.js is loaded first, as Stripe asks of pages that start a
 * payment (fraud signals), from a dynamic import: only /subscription, only on a click, ever
 * downloads it. With the local sandbox there is no key and the redirect is all
 * (docs/payments.md).
 */
import { STRIPE_FAILED_TO_LOAD } from './subscription-text';

export async function openCheckout(url: string): Promise<void> {
  const publishableKey = import.meta.env.VITE_STRIPE_PUBLISHABLE_KEY as string | undefined;
  if (publishableKey) {
    const { loadStripe } = await import('@stripe/stripe-js');
    const stripe = await loadStripe(publishableKey).catch(() => null);
    if (!stripe) throw new Error(STRIPE_FAILED_TO_LOAD);
  }
  window.location.assign(url);
}
