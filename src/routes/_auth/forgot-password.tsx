import { createFileRoute } from '@tanstack/react-router';
import { ForgotPasswordPage } from '@/features/auth/forgot-password-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_auth/forgot-password')({
  head: titleHead('Forgot password'),
  component: ForgotPasswordPage,
});
