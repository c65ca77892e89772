import { createFileRoute } from '@tanstack/react-router';
import { AppealsPage } from '@/features/appeals/appeals-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/appeals')({
  head: titleHead('Moderation decisions'),
  component: AppealsPage,
});
