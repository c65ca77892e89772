import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltYet } from '@/components/not-built-yet';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/payouts')({
  head: titleHead('Payouts'),
  component: () => <NotBuiltYet title="Payouts" what="Requesting payouts" />,
});
