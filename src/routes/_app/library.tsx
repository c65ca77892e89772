import { createFileRoute } from '@tanstack/react-router';
import { LibraryPage } from '@/features/library/library-page';
import { parseLibrarySearch } from '@/features/library/library-search';
import { YourUploads } from '@/features/upload/your-uploads/your-uploads';
import { titleHead } from '@/lib/page-title';

export {
  LIBRARY_TABS,
  type LibrarySearch,
  type LibraryTab,
} from '@/features/library/library-search';

export const Route = createFileRoute('/_app/library')({
  head: titleHead('Your Library'),
  validateSearch: parseLibrarySearch,
  component: LibraryRoute,
});

function LibraryRoute() {
  return <LibraryPage search={Route.useSearch()} uploads={<YourUploads />} />;
}
