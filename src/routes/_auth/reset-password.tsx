import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '@/features/auth/reset-password-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_auth/reset-password')({
  head: titleHead('Set a new password'),
  component: ResetPasswordPage,
});
