import { createFileRoute } from '@tanstack/react-router';
import { PaymentApprovedPage } from '@/features/payment/payment-approved-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/payment-approved')({
  head: titleHead('Payment Successful'),
  component: PaymentApprovedPage,
});
