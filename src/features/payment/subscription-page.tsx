import {
  Alert,
  Badge,
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { fetchOnDemand, useProfile } from '@/data';
import { usePaymentsStatus } from '@/data/payments-status';
import {
  cancelSubscription,
  createCheckoutSession,
  fetchOwnSubscription,
  fetchPlan,
  type OwnSubscription,
} from '@/data/remote/payments-remote';
import { useSessionUser } from '@/data/auth';
import { PlanSummary } from '@/components/plan-summary';
import { PLANS, type PlanDefinition, type PlanId } from '@/lib/plans';
import { openCheckout } from './open-checkout';
import {
  CHECKOUT_FAILED,
  DOWNGRADE_CONFIRM,
  DOWNGRADE_FAILED,
  DOWNGRADE_SUBMITTED,
  INVALID_PROMO,
  formatPlanDate,
  planButton,
} from './subscription-text';

type Notice = { kind: 'success' | 'error'; text: string } | null;

/** How many times the page asks again for the subscription after a downgrade (once a second). */
const CANCEL_CHECKS = 30;

/**
 * /subscription (spec 2, 8, 9; docs/payments.md): the three plans from the one definition, the
 * user's plan and its renewal or end date, checkout through Stripe (or the local sandbox), and
 * 'Downgrade to Free' at the end of the paid period. The plan itself only changes when Stripe's
 * webhook says so; this page asks and then shows what the server reports.
 */
export function SubscriptionPage() {
  const user = useSessionUser();
  const userId = user?.id ?? null;
  const mirrored = useProfile(userId ?? undefined);
  const [serverPlan, setServerPlan] = useState<string | null>(null);
  const [subscription, setSubscription] = useState<OwnSubscription | null>(null);
  const [promo, setPromo] = useState('');
  const [promoError, setPromoError] = useState<string | null>(null);
  const [busy, setBusy] = useState<PlanId | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  // PAYMENTS=off on the server: its notice replaces checkout (upgrades are disabled).
  const paymentsOff = usePaymentsStatus().notice;

  // The plan and subscription as the server has them now (the mirror may lag a webhook).
  const [reload, setReload] = useState(0);
  useEffect(() => {
    if (!userId) return;
    let live = true;
    Promise.all([fetchPlan(userId), fetchOwnSubscription()])
      .then(([plan, sub]) => {
        if (!live) return;
        setServerPlan(plan);
        setSubscription(sub);
        void fetchOnDemand.profile(userId);
      })
      .catch((error: unknown) => console.warn('[subscription] could not load the plan', error));
    return () => {
      live = false;
    };
  }, [userId, reload]);

  // After a downgrade, Stripe's webhook marks the subscription as ending; it reaches the server
  // a moment after cancel-subscription answers (seconds on real Stripe): ask again each second
  // until the row says so, for at most half a minute.
  const [awaitingCancel, setAwaitingCancel] = useState(0);
  useEffect(() => {
    const done = subscription?.cancelAtPeriodEnd ?? false;
    if (awaitingCancel === 0 || awaitingCancel > CANCEL_CHECKS || done) return;
    const timer = setTimeout(() => {
      setAwaitingCancel((n) => n + 1);
      setReload((n) => n + 1);
    }, 1000);
    return () => clearTimeout(timer);
  }, [awaitingCancel, subscription]);

  const current = (serverPlan ?? mirrored?.subscriptionPlan ?? 'free') as PlanId;
  const loading = serverPlan === null && !mirrored;
  const showPromo = (current === 'free' || current === 'basic') && !paymentsOff;

  const choose = async (plan: PlanDefinition) => {
    if (!user || plan.id === 'free') return;
    setBusy(plan.id);
    setNotice(null);
    try {
      const session = await createCheckoutSession({
        planId: plan.id,
        userId: user.id,
        email: user.email ?? '',
        promoCode: promo.trim() || null,
      });
      await openCheckout(session.url);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message.includes('Invalid coupon')) setPromoError(INVALID_PROMO);
      else setNotice({ kind: 'error', text: CHECKOUT_FAILED });
      setBusy(null);
    }
  };

  const downgrade = async () => {
    if (!user || !window.confirm(DOWNGRADE_CONFIRM)) return;
    setBusy('free');
    setNotice(null);
    try {
      const { cancelAt } = await cancelSubscription(user.id);
      const until = cancelAt
        ? ` You keep your current plan until ${formatPlanDate(cancelAt)}.`
        : '';
      setNotice({ kind: 'success', text: `${DOWNGRADE_SUBMITTED}${until}` });
      setReload((n) => n + 1);
      setAwaitingCancel(1);
    } catch {
      setNotice({ kind: 'error', text: DOWNGRADE_FAILED });
    } finally {
      setBusy(null);
    }
  };

  const currentName = PLANS.find((p) => p.id === current)?.name ?? 'Free';
  const periodEnd = subscription?.currentPeriodEnd ?? null;

  return (
    <Container size="xl" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="xl">
        <Stack gap={6}>
          <Title order={1}>Choose Your Plan</Title>
          <Text c="gray.4">
            Every plan streams the whole catalogue. Prices are per month in EUR, charged in advance.
          </Text>
          {loading ? (
            <Text size="sm" c="dimmed" role="status">
              Loading your plan…
            </Text>
          ) : (
            <Text size="sm" role="status" data-testid="plan-status">
              You are on the <strong>{currentName}</strong> plan.
              {periodEnd && subscription?.status !== 'canceled'
                ? subscription?.cancelAtPeriodEnd
                  ? ` It ends on ${formatPlanDate(periodEnd)}; after that you are on Free.`
                  : ` It renews on ${formatPlanDate(periodEnd)}.`
                : ''}
              {subscription?.status === 'past_due'
                ? ' Your last payment did not go through: the payment provider will try again.'
                : ''}
            </Text>
          )}
        </Stack>

        {paymentsOff ? (
          <Alert
            color="yellow"
            icon={<IconInfoCircle size={18} aria-hidden />}
            role="status"
            data-testid="payments-off"
          >
            {paymentsOff}
          </Alert>
        ) : null}

        {notice ? (
          <Alert
            color={notice.kind === 'success' ? 'teal' : 'red'}
            icon={<IconInfoCircle size={18} aria-hidden />}
            role={notice.kind === 'error' ? 'alert' : 'status'}
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setNotice(null)}
          >
            {notice.text}
          </Alert>
        ) : null}

        {showPromo ? (
          <TextInput
            label="Promo code"
            description="Have a code? It is checked when you continue to payment."
            placeholder="e.g. WELCOME50"
            maw={360}
            value={promo}
            error={promoError}
            autoComplete="off"
            onChange={(e) => {
              setPromo(e.currentTarget.value);
              setPromoError(null);
            }}
          />
        ) : null}

        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          {PLANS.map((plan) => {
            const action = planButton(plan.id, current, subscription?.cancelAtPeriodEnd === true);
            const isCurrent = plan.id === current;
            return (
              <Paper
                key={plan.id}
                component="section"
                aria-labelledby={`plan-${plan.id}`}
                p="xl"
                radius="lg"
                withBorder
                bg={isCurrent ? 'dark.5' : 'dark.6'}
                style={isCurrent ? { borderColor: 'var(--mantine-color-ember-5)' } : undefined}
              >
                <Stack gap="md" h="100%">
                  <Group justify="space-between">
                    <Title order={2} fz="xl" id={`plan-${plan.id}`}>
                      {plan.name}
                    </Title>
                    {isCurrent ? (
                      <Badge color="ember">Current Plan</Badge>
                    ) : plan.badge ? (
                      <Badge variant="light">{plan.badge}</Badge>
                    ) : null}
                  </Group>
                  <PlanSummary plan={plan} />
                  <Button
                    fullWidth
                    size="md"
                    variant={action.kind === 'upgrade' ? 'filled' : 'default'}
                    disabled={
                      action.disabled ||
                      (busy !== null && busy !== plan.id) ||
                      loading ||
                      (paymentsOff !== null && action.kind === 'upgrade')
                    }
                    loading={busy === plan.id}
                    aria-label={
                      action.kind === 'current' ? `${plan.name}: Current Plan` : undefined
                    }
                    onClick={() => {
                      if (action.kind === 'downgrade') void downgrade();
                      else if (action.kind === 'upgrade') void choose(plan);
                    }}
                  >
                    {action.label}
                  </Button>
                </Stack>
              </Paper>
            );
          })}
        </SimpleGrid>

        <Text size="sm" c="dimmed" ta="center">
          Subscriptions are managed securely by our card payment provider (Stripe). You can cancel
          anytime: a cancelled plan stays active until the end of the period you paid for.
        </Text>
      </Stack>
    </Container>
  );
}
