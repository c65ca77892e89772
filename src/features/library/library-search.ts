/**
 * /library's search params (spec 2): tab=uploads|liked|playlists|downloads, create=playlist,
 * edit={id}. Downloads is issue 17's (docs/offline.md).
 */
export const LIBRARY_TABS = ['uploads', 'liked', 'playlists', 'downloads'] as const;
export type LibraryTab = (typeof LIBRARY_TABS)[number];

export interface LibrarySearch {
  tab?: LibraryTab;
  create?: 'playlist';
  edit?: string;
}

export const DEFAULT_LIBRARY_TAB: LibraryTab = 'uploads';

export const LIBRARY_TAB_LABELS: Record<LibraryTab, string> = {
  uploads: 'Your Uploads',
  liked: 'Liked Songs',
  playlists: 'Playlists',
  downloads: 'Downloads',
};

/** Keeps only valid values; anything else is dropped (an unknown tab shows the default). */
export function parseLibrarySearch(search: Record<string, unknown>): LibrarySearch {
  const out: LibrarySearch = {};
  if (LIBRARY_TABS.includes(search.tab as LibraryTab)) out.tab = search.tab as LibraryTab;
  if (search.create === 'playlist') out.create = 'playlist';
  if (typeof search.edit === 'string' && search.edit) out.edit = search.edit;
  return out;
}

export const isLibraryTab = (value: unknown): value is LibraryTab =>
  LIBRARY_TABS.includes(value as LibraryTab);
