import { createFileRoute } from '@tanstack/react-router';
import { InsightsPage } from '@/features/insights/insights-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/insights')({
  head: titleHead('Insights'),
  component: InsightsPage,
});
