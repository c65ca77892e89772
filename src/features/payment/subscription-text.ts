/** The subscription page's words (spec 2 and 8, verbatim) and which button each card shows. */
import type { PlanId } from '@/lib/plans';

export const INVALID_PROMO = 'Invalid promo code.';
export const CHECKOUT_FAILED = 'Failed to process subscription. Please try again.';
export const STRIPE_FAILED_TO_LOAD = 'Stripe failed to load';
export const DOWNGRADE_CONFIRM =
  'Are you sure you want to downgrade to the Free plan? This will cancel your current subscription.';
export const DOWNGRADE_FAILED = 'Failed to downgrade plan. Please try again.';
export const DOWNGRADE_SUBMITTED =
  'Downgrade request submitted. Your plan will be updated shortly.';

export type PlanAction =
  | { kind: 'current'; label: 'Current Plan'; disabled: true }
  | { kind: 'select'; label: 'Select Plan'; disabled: true }
  | { kind: 'downgrade'; label: 'Downgrade to Free' | 'Downgrade scheduled'; disabled: boolean }
  | { kind: 'upgrade'; label: 'Upgrade Plan'; disabled: false };

/**
 * Spec 2: the current plan shows 'Current Plan'; a paid user sees 'Downgrade to Free' on the
 * Free card (once asked, until the period ends: 'Downgrade scheduled'); other cards 'Upgrade
 * Plan'; a free user sees a disabled 'Select Plan' on the Free card.
 */
export function planButton(plan: PlanId, current: PlanId, downgradeScheduled = false): PlanAction {
  if (plan === 'free') {
    if (current === 'free') return { kind: 'select', label: 'Select Plan', disabled: true };
    return downgradeScheduled
      ? { kind: 'downgrade', label: 'Downgrade scheduled', disabled: true }
      : { kind: 'downgrade', label: 'Downgrade to Free', disabled: false };
  }
  if (plan === current) return { kind: 'current', label: 'Current Plan', disabled: true };
  return { kind: 'upgrade', label: 'Upgrade Plan', disabled: false };
}

/** '25 December 2026' */
export function formatPlanDate(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(new Date(iso));
}
