import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '@/features/auth/login-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_auth/login')({
  validateSearch: (search: Record<string, unknown>): { reset?: 'done' } =>
    search.reset === 'done' ? { reset: 'done' } : {},
  head: titleHead('Log In'),
  component: LoginRoute,
});

function LoginRoute() {
  const { reset } = Route.useSearch();
  return (
    <LoginPage
      notice={
        reset === 'done'
          ? 'Your password has been updated. Log in with your new password.'
          : undefined
      }
    />
  );
}
