import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltYet } from '@/components/not-built-yet';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/admin')({
  head: titleHead('Administration'),
  component: () => <NotBuiltYet title="Administration" what="The admin dashboard" />,
});
