import { createFileRoute } from '@tanstack/react-router';
import { VerifyEmailPage } from '@/features/auth/verify-email-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_auth/verify-email/')({
  validateSearch: (search: Record<string, unknown>): { email?: string } =>
    typeof search.email === 'string' && search.email.length <= 320 ? { email: search.email } : {},
  head: titleHead('Verify your email'),
  component: VerifyEmailRoute,
});

function VerifyEmailRoute() {
  const { email } = Route.useSearch();
  return <VerifyEmailPage email={email} />;
}
