import { Button, Container, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { PublicPage } from '@/components/site/public-page';
import { fetchPlan } from '@/data/remote/payments-remote';
import { useAuthStatus, useSessionUserId } from '@/data/auth';
import { PLANS } from '@/lib/plans';
import { PROCESSING_TEXT, pollPlan, retryingText, type PollState } from './plan-polling';

/** Payment Successful (spec 2, 4): polls the plan the webhook sets, then 'Go to Home'. */
export function PaymentApprovedPage() {
  const userId = useSessionUserId();
  const authStatus = useAuthStatus();
  const [state, setState] = useState<PollState>({ phase: 'processing' });

  useEffect(() => {
    if (!userId) return;
    let live = true;
    const target = new URLSearchParams(window.location.search).get('plan');
    void pollPlan(() => fetchPlan(userId), setState, { target, isLive: () => live }).then(
      (plan) => {
        // The mirror learns the new plan too (the data layer loads only now: this public page
        // stays light).
        if (plan) {
          void import('@/data')
            .then(({ fetchOnDemand }) => fetchOnDemand.profile(userId))
            .catch(() => undefined);
        }
      },
    );
    return () => {
      live = false;
    };
  }, [userId]);

  const signedOut = authStatus === 'unauthenticated';
  const planName =
    state.phase === 'done' && state.plan ? PLANS.find((p) => p.id === state.plan)?.name : null;
  const status = signedOut
    ? 'Sign in to see your new plan.'
    : state.phase === 'processing'
      ? PROCESSING_TEXT
      : state.phase === 'retrying'
        ? retryingText(state.attempt)
        : planName
          ? `Your ${planName} plan is active. Enjoy!`
          : 'Your payment was received. Your plan will update as soon as the payment provider confirms it, usually within a minute.';

  return (
    <PublicPage account={authStatus === 'mfa' ? 'unauthenticated' : authStatus}>
      <Container size="sm" py={{ base: 48, md: 96 }}>
        <Stack align="center" ta="center" gap="lg">
          <ThemeIcon size={72} radius="xl" color="teal" variant="light">
            <IconCircleCheck size={40} aria-hidden />
          </ThemeIcon>
          <Title order={1}>Payment Successful</Title>
          <Stack align="center" gap="xs" role="status" aria-live="polite">
            {!signedOut && state.phase !== 'done' ? <Loader size="sm" aria-hidden /> : null}
            <Text c="gray.3" data-testid="payment-status">
              {status}
            </Text>
          </Stack>
          <Button component={Link} to="/home" size="md">
            Go to Home
          </Button>
        </Stack>
      </Container>
    </PublicPage>
  );
}
