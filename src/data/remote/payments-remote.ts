/**
 * Payments (docs/payments.md): the spec's function calls (`create-checkout-session`,
 * `cancel-subscription`), the plan polling of /payment-approved, and the user's subscription
 * (renewal or end date). Errors carry the function's `{error}` message (e.g. 'Invalid coupon').
 */
import { getSupabase, sessionUserId } from './client';

export interface CheckoutRequest {
  planId: 'basic' | 'premium';
  userId: string;
  email: string;
  promoCode: string | null;
}

export interface OwnSubscription {
  planId: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: string | null;
}

/** The `{error}` of a function's 4xx/5xx answer, else the client's message. */
async function functionError(error: unknown): Promise<Error> {
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    const body = (await context.json().catch(() => null)) as { error?: unknown } | null;
    if (typeof body?.error === 'string') return new Error(body.error);
  }
  return error instanceof Error ? error : new Error(String(error));
}

async function invoke<T>(name: string, body: Record<string, unknown>): Promise<T> {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke<T>(name, { body });
  if (error) throw await functionError(error);
  return data as T;
}

/** POST create-checkout-session → {id, url}: the page sends the browser to `url`. */
export function createCheckoutSession(req: CheckoutRequest): Promise<{ id: string; url: string }> {
  return invoke('create-checkout-session', { ...req });
}

/**
 * GET payments-status → whether this server sells paid plans (PAYMENTS=off or no Stripe key:
 * not) and the notice to show instead of checkout (docs/production.md).
 */
export async function fetchPaymentsStatus(): Promise<{ enabled: boolean; notice: string | null }> {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke<{
    enabled: boolean;
    notice: string | null;
  }>('payments-status', { method: 'GET' });
  if (error) throw await functionError(error);
  return { enabled: data?.enabled !== false, notice: data?.notice ?? null };
}

/** POST cancel-subscription {userId} → the end of the paid period (ISO), when the plan ends. */
export function cancelSubscription(
  userId: string,
): Promise<{ success: boolean; cancelAt: string | null }> {
  return invoke('cancel-subscription', { userId });
}

/** profiles.subscription_plan of the user (spec 7: "select subscription_plan by id (polling)"). */
export async function fetchPlan(userId: string): Promise<string> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('profiles')
    .select('subscription_plan')
    .eq('id', userId)
    .maybeSingle();
  if (error) throw new Error(error.message || 'Request failed');
  return data?.subscription_plan ?? 'free';
}

/**
 * The user's subscription that still gives access, or null. Filtered on the session's user: an
 * admin may read every subscription (RLS), and was shown the newest one of any account.
 */
export async function fetchOwnSubscription(): Promise<OwnSubscription | null> {
  const client = await getSupabase();
  const userId = await sessionUserId(client);
  if (!userId) return null;
  const { data, error } = await client
    .from('subscriptions')
    .select('plan_id, status, cancel_at_period_end, current_period_end')
    .eq('user_id', userId)
    .in('status', ['active', 'trialing', 'past_due'])
    .order('updated_at', { ascending: false })
    .limit(1);
  if (error) throw new Error(error.message || 'Request failed');
  const row = data[0];
  return row
    ? {
        planId: row.plan_id,
        status: row.status,
        cancelAtPeriodEnd: row.cancel_at_period_end,
        currentPeriodEnd: row.current_period_end,
      }
    : null;
}
