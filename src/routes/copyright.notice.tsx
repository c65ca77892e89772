import { createFileRoute } from '@tanstack/react-router';
import { NoticeForm } from '@/features/copyright';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/copyright/notice')({
  head: titleHead('Copyright notice'),
  validateSearch: (search: Record<string, unknown>): { track?: string } =>
    typeof search.track === 'string' ? { track: search.track } : {},
  component: NoticeRoute,
});

function NoticeRoute() {
  const { track } = Route.useSearch();
  return <NoticeForm track={track} />;
}
