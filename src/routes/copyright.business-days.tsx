import { createFileRoute } from '@tanstack/react-router';
import { BusinessDaysPage } from '@/features/copyright';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/copyright/business-days')({
  head: titleHead('Business days'),
  component: BusinessDaysPage,
});
