import { createFileRoute } from '@tanstack/react-router';
import { ExplorePage } from '@/features/explore';
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
  component: ExploreRoute,
});

function ExploreRoute() {
  const { q = '' } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ExplorePage
      q={q}
      onQueryChange={(next) => void navigate({ search: next ? { q: next } : {}, replace: true })}
    />
  );
}
