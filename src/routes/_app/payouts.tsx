import { createFileRoute } from '@tanstack/react-router';
import { PayoutsPage } from '@/features/payouts/payouts-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/payouts')({
  head: titleHead('Payouts'),
  component: PayoutsPage,
});
