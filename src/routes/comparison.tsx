import { createFileRoute } from '@tanstack/react-router';
import { ComparisonPage } from '@/features/comparison/comparison-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/comparison')({
  head: titleHead('Compare plans'),
  component: ComparisonPage,
});
