import { createFileRoute } from '@tanstack/react-router';
import { SubscriptionPage } from '@/features/payment/subscription-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/subscription')({
  head: titleHead('Choose Your Plan'),
  component: SubscriptionPage,
});
