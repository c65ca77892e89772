/** Catalogue search: the local index, the server fallback, the explore screen's hooks. */
export { useTrackSearch, SERVER_PAGE, type TrackSearch } from './use-track-search';
export { useTopGenres, type GenreCount } from './use-top-genres';
export { normaliseSearch, trackMatches } from './track-search';
export { useOnline } from './use-online';
export {
  PREPARING_SEARCH,
  useCatalogueSearch,
  type CatalogueSearch,
} from './ranked/use-catalogue-search';
export type { SearchDoc, SearchKind } from './ranked/docs';
export type { SearchHit } from './ranked/engine';
export { useRecentSearches, RECENT_SEARCHES_MAX } from './recent-searches';
