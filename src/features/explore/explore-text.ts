/** The explore screen's words (spec 2, verbatim). */

export const exploreHeading = (query: string) => (query ? `Results for "${query}"` : 'All Tracks');

export const tracksFoundLabel = (n: number) => `${n} tracks found`;

export const NO_TRACKS_FOUND = 'No tracks found.';
export const TRY_DIFFERENT_TERM = 'Try a different search term.';

export const SEARCH_PLACEHOLDER = 'Search tracks, artists, albums, genres';

/** Rows shown at first and added by each 'Show more'. */
export const PAGE_SIZE = 100;
/** Typing settles this long before the address bar follows (history is replaced, not pushed). */
export const URL_DEBOUNCE_MS = 300;
