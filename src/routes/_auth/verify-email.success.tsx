import { createFileRoute } from '@tanstack/react-router';
import { VerifyEmailSuccessPage } from '@/features/auth/verify-email-success-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_auth/verify-email/success')({
  head: titleHead('Email verified'),
  component: VerifyEmailSuccessPage,
});
