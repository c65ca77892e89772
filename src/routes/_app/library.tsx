import { createFileRoute } from '@tanstack/react-router';
import { titleHead } from '@/lib/page-title';

export const LIBRARY_TABS = ['uploads', 'liked', 'playlists'] as const;
export type LibraryTab = (typeof LIBRARY_TABS)[number];

export interface LibrarySearch {
  tab?: LibraryTab;
  create?: 'playlist';
  edit?: string;
}

export const Route = createFileRoute('/_app/library')({
  head: titleHead('Your Library'),
  validateSearch: (search: Record<string, unknown>): LibrarySearch => {
    const out: LibrarySearch = {};
    if (LIBRARY_TABS.includes(search.tab as LibraryTab)) out.tab = search.tab as LibraryTab;
    if (search.create === 'playlist') out.create = 'playlist';
    if (typeof search.edit === 'string' && search.edit) out.edit = search.edit;
    return out;
  },
  component: () => null,
});
