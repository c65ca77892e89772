import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltYet } from '@/components/not-built-yet';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/subscription')({
  head: titleHead('Choose Your Plan'),
  component: () => <NotBuiltYet title="Choose Your Plan" what="Changing your plan" />,
});
