import { createFileRoute } from '@tanstack/react-router';
import { titleHead } from '@/lib/page-title';

export interface ExploreSearch {
  q?: string;
}

export const Route = createFileRoute('/_app/explore')({
  head: titleHead('Explore'),
  validateSearch: (search: Record<string, unknown>): ExploreSearch => {
    const q = typeof search.q === 'string' ? search.q.trim() : '';
    return q ? { q } : {};
  },
  component: () => null,
});
