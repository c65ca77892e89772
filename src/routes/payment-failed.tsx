import { createFileRoute } from '@tanstack/react-router';
import { PaymentFailedPage } from '@/features/payment/payment-failed-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/payment-failed')({
  head: titleHead('Payment Failed'),
  component: PaymentFailedPage,
});
