/** The explore screen's words (spec 2, verbatim). */

export const exploreHeading = (query: string) => (query ? `Results for "${query}"` : 'All Tracks');

export const tracksFoundLabel = (n: number) => `${n} tracks found`;

export const NO_TRACKS_FOUND = 'No tracks found.';
export const TRY_DIFFERENT_TERM = 'Try a different search term.';

export const SEARCH_PLACEHOLDER = 'Search tracks, artists, albums, genres';

/** Rows shown at first and added by each 'Show more'. */
export const PAGE_SIZE = 100;
/**
 * Rows a new search renders at first (a phone's first screen shows about ten), and added per
 * background step until all `PAGE_SIZE` are there (each row mounts a menu: about 7 ms of a
 * throttled phone's main thread).
 */
export const FIRST_ROWS = 16;
export const ROW_STEP = 16;
/** Typing settles this long before the address bar follows (history is replaced, not pushed). */
export const URL_DEBOUNCE_MS = 300;
